#include "extensions/symbolstore/file_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <vector>

#include "extensions/symbolstore/elf_check.h"

namespace proflow::extensions::symbolstore {

namespace fs = std::filesystem;

namespace {

std::string keyOf(const std::string& build_id, Artifact a) { return build_id + "/" + artifactName(a); }

bool sameContent(const std::string& a, const std::string& b) {
  std::error_code ec1, ec2;
  if (fs::file_size(a, ec1) != fs::file_size(b, ec2) || ec1 || ec2) return false;
  std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
  std::vector<char> ba(1 << 16), bb(1 << 16);
  while (fa && fb) {
    fa.read(ba.data(), static_cast<std::streamsize>(ba.size()));
    fb.read(bb.data(), static_cast<std::streamsize>(bb.size()));
    if (fa.gcount() != fb.gcount() || !std::equal(ba.begin(), ba.begin() + fa.gcount(), bb.begin())) return false;
  }
  return fa.eof() && fb.eof();
}

}  // namespace

const char* artifactName(Artifact a) { return a == Artifact::kExecutable ? "executable" : "debuginfo"; }

FileStore::FileStore(std::string directory, uint64_t quota_bytes)
    : directory_(std::move(directory)), quota_(quota_bytes) {}

std::string FileStore::pathOf(const std::string& key) const { return (fs::path(directory_) / key).string(); }

Status FileStore::open() {
  std::error_code ec;
  const fs::path tmp = fs::path(directory_) / ".tmp";
  fs::create_directories(tmp, ec);
  if (ec) return Status::unavailable("symbol store directory " + directory_ + ": " + ec.message());
  for (const auto& e : fs::directory_iterator(tmp, ec)) fs::remove(e.path(), ec);
  struct Found {
    std::string key;
    uint64_t size;
    fs::file_time_type used;
  };
  std::vector<Found> found;
  for (const auto& dir : fs::directory_iterator(directory_, ec)) {
    const std::string name = dir.path().filename().string();
    if (!dir.is_directory() || normalizeBuildId(name) != name) continue;
    for (Artifact a : {Artifact::kDebuginfo, Artifact::kExecutable}) {
      const fs::path p = dir.path() / artifactName(a);
      std::error_code fec;
      if (!fs::is_regular_file(p, fec)) continue;
      found.push_back({keyOf(name, a), fs::file_size(p, fec), fs::last_write_time(p, fec)});
    }
  }
  if (ec) return Status::unavailable("cannot list symbol store directory " + directory_ + ": " + ec.message());
  std::sort(found.begin(), found.end(), [](const Found& a, const Found& b) { return a.used < b.used; });
  std::lock_guard lock(mu_);
  for (const auto& f : found) insertLocked(f.key, f.size);
  evictLocked("");
  return Status::ok();
}

std::string FileStore::newTempPath() {
  std::lock_guard lock(mu_);
  return (fs::path(directory_) / ".tmp" / (std::to_string(getpid()) + "-" + std::to_string(++temp_counter_)))
      .string();
}

Status FileStore::commit(const std::string& temp_path, const std::string& build_id, Artifact artifact,
                         const char** reason) {
  std::error_code ec;
  if (Status s = checkElfFile(temp_path, build_id, reason); !s.isOk()) {
    fs::remove(temp_path, ec);
    return s;
  }
  const uint64_t size = fs::file_size(temp_path, ec);
  const std::string key = keyOf(build_id, artifact);
  const std::string path = pathOf(key);
  {
    std::lock_guard lock(mu_);
    fs::create_directories(fs::path(directory_) / build_id, ec);
    // link() never replaces: of two uploads of one id only the first lands, whatever their timing.
    if (::link(temp_path.c_str(), path.c_str()) == 0) {
      fs::remove(temp_path, ec);
      insertLocked(key, size);
      evictLocked(key);
      return Status::ok();
    }
  }
  const int err = errno;
  if (err != EEXIST) {
    fs::remove(temp_path, ec);
    return Status::unavailable("cannot store the file: " + std::error_code(err, std::generic_category()).message());
  }
  // Stored already: the same bytes again are fine (a retried upload), other bytes are refused.
  const bool same = sameContent(temp_path, path);
  fs::remove(temp_path, ec);
  if (same) return Status::ok();
  if (reason) *reason = "exists";
  return Status(StatusCode::kFailedPrecondition,
                build_id + " " + artifactName(artifact) + " is stored already with other content; stored files are "
                "never replaced");
}

void FileStore::insertLocked(const std::string& key, uint64_t size) {
  if (auto it = entries_.find(key); it != entries_.end()) {
    bytes_ -= it->second.size;
    lru_.erase(it->second.lru);
    entries_.erase(it);
  }
  lru_.push_back(key);
  entries_[key] = Entry{size, std::prev(lru_.end())};
  bytes_ += size;
}

void FileStore::evictLocked(const std::string& keep) {
  while (bytes_ > quota_ && !lru_.empty()) {
    const std::string victim = lru_.front() == keep && lru_.size() > 1 ? *std::next(lru_.begin()) : lru_.front();
    if (victim == keep) break;
    auto it = entries_.find(victim);
    bytes_ -= it->second.size;
    lru_.erase(it->second.lru);
    entries_.erase(it);
    ++evictions_;
    std::error_code ec;
    fs::remove(pathOf(victim), ec);
    fs::remove(fs::path(pathOf(victim)).parent_path(), ec);  // only succeeds once the folder is empty
  }
}

std::optional<std::string> FileStore::find(const std::string& build_id, Artifact artifact) {
  const std::string key = keyOf(build_id, artifact);
  std::lock_guard lock(mu_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  lru_.splice(lru_.end(), lru_, it->second.lru);
  const std::string path = pathOf(key);
  // The modification time records the last use, so the order survives a restart.
  utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  return path;
}

bool FileStore::contains(const std::string& build_id, Artifact artifact) const {
  std::lock_guard lock(mu_);
  return entries_.count(keyOf(build_id, artifact)) > 0;
}

FileStore::Stats FileStore::stats() const {
  std::lock_guard lock(mu_);
  return {bytes_, entries_.size(), evictions_};
}

}  // namespace proflow::extensions::symbolstore
