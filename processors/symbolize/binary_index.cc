#include "processors/symbolize/binary_index.h"

#include <fcntl.h>
#include <libelf.h>
#include <unistd.h>

#include <filesystem>

#include "processors/symbolize/build_id.h"

namespace proflow::symbolize {

namespace fs = std::filesystem;

BinaryIndex::BinaryIndex(std::vector<std::string> dirs, std::vector<std::string> paths,
                         std::chrono::nanoseconds rescan_after)
    : dirs_(std::move(dirs)), paths_(std::move(paths)), rescan_after_(rescan_after) {}

std::optional<BinaryIndex::Entry> BinaryIndex::identify(const std::string& path, bool with_htlhash) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  elf_version(EV_CURRENT);
  Elf* elf = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  std::optional<Entry> entry;
  if (elf != nullptr && elf_kind(elf) == ELF_K_ELF) {
    ElfIdentity id = readElfIdentity(elf);
    entry = Entry{id.gnu_build_id, id.go_build_id, {}};
  }
  if (elf != nullptr) elf_end(elf);
  close(fd);
  if (entry && with_htlhash) entry->htl = htlhashOfFile(path).value_or("");
  return entry;
}

void BinaryIndex::addLocked(const std::string& path) {
  auto entry = identify(path, true);
  if (!entry) return;
  if (!entry->gnu.empty()) by_gnu_.emplace(entry->gnu, path);
  if (!entry->go.empty()) by_go_.emplace(entry->go, path);
  if (!entry->htl.empty()) by_htl_.emplace(entry->htl, path);
}

void BinaryIndex::scanLocked() {
  by_gnu_.clear();
  by_go_.clear();
  by_htl_.clear();
  for (const auto& p : paths_) addLocked(p);
  for (const auto& d : dirs_) {
    std::error_code ec;
    for (fs::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code ec2;
      if (it->is_regular_file(ec2)) addLocked(it->path().string());
    }
  }
  scanned_ = true;
  last_scan_ = std::chrono::steady_clock::now();
}

std::optional<std::string> BinaryIndex::findLocked(const BinaryRef& ref) const {
  for (const auto& [key, map] : {std::pair{&ref.gnu_build_id, &by_gnu_}, std::pair{&ref.go_build_id, &by_go_},
                                 std::pair{&ref.htlhash, &by_htl_}}) {
    if (key->empty()) continue;
    auto it = map->find(*key);
    if (it != map->end()) return it->second;
  }
  return std::nullopt;
}

std::optional<std::string> BinaryIndex::find(const BinaryRef& ref) {
  if (dirs_.empty() && paths_.empty()) return std::nullopt;
  std::lock_guard<std::mutex> lock(mu_);
  if (!scanned_) scanLocked();
  if (auto found = findLocked(ref)) return found;
  if (std::chrono::steady_clock::now() - last_scan_ < rescan_after_) return std::nullopt;
  scanLocked();
  return findLocked(ref);
}

}  // namespace proflow::symbolize
