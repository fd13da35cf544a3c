#include "processors/symbolize/build_id.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cstring>
#include <vector>

#include "core/util/hex.h"

namespace proflow::symbolize {
namespace {

// Reads exactly n bytes at offset; false on a short read.
bool readAt(int fd, off_t offset, unsigned char* buf, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t r = pread(fd, buf + done, n - done, offset + static_cast<off_t>(done));
    if (r <= 0) return false;
    done += static_cast<size_t>(r);
  }
  return true;
}

std::string goNoteIn(Elf_Data* data) {
  GElf_Nhdr nhdr;
  size_t offset = 0, name_off = 0, desc_off = 0;
  while ((offset = gelf_getnote(data, offset, &nhdr, &name_off, &desc_off)) > 0) {
    const char* base = static_cast<const char*>(data->d_buf);
    if (nhdr.n_type == 4 && nhdr.n_namesz == 4 && std::memcmp(base + name_off, "Go\0\0", 4) == 0)
      return std::string(base + desc_off, nhdr.n_descsz);
  }
  return {};
}

}  // namespace

std::optional<std::string> normalizeGnuBuildId(std::string_view untrusted) {
  if (untrusted.size() < 4 || untrusted.size() > 128 || untrusted.size() % 2 != 0) return std::nullopt;
  return hexLowercase(untrusted);
}

std::optional<std::string> normalizeHtlhash(std::string_view untrusted) {
  if (untrusted.size() != 32) return std::nullopt;
  return hexLowercase(untrusted);
}

std::optional<std::string> normalizeGoBuildId(std::string_view untrusted) {
  if (untrusted.empty() || untrusted.size() > 256) return std::nullopt;
  for (char c : untrusted)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '/' && c != '_' && c != '-' && c != '=')
      return std::nullopt;
  return std::string(untrusted);
}

ElfIdentity readElfIdentity(Elf* elf) {
  ElfIdentity id;
  if (elf == nullptr) return id;
  const void* bits = nullptr;
  ssize_t n = dwelf_elf_gnu_build_id(elf, &bits);
  if (n > 0) id.gnu_build_id = hexEncode(std::string_view(static_cast<const char*>(bits), static_cast<size_t>(n)));
  Elf_Scn* scn = nullptr;
  while ((scn = elf_nextscn(elf, scn)) != nullptr) {
    GElf_Shdr shdr;
    if (gelf_getshdr(scn, &shdr) == nullptr || shdr.sh_type != SHT_NOTE) continue;
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (data == nullptr) continue;
    id.go_build_id = goNoteIn(data);
    if (!id.go_build_id.empty()) break;
  }
  return id;
}

std::optional<std::string> htlhashOfFile(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st;
  std::optional<std::string> result;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    const uint64_t len = static_cast<uint64_t>(st.st_size);
    const size_t window = static_cast<size_t>(std::min<uint64_t>(len, 4096));
    std::vector<unsigned char> input(window * 2 + 8);
    bool ok = readAt(fd, 0, input.data(), window) &&
              readAt(fd, static_cast<off_t>(len - window), input.data() + window, window);
    for (int i = 0; i < 8; ++i) input[window * 2 + i] = static_cast<unsigned char>(len >> (56 - 8 * i));
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int digest_len = 0;
    if (ok && EVP_Digest(input.data(), input.size(), digest.data(), &digest_len, EVP_sha256(), nullptr) == 1 &&
        digest_len >= 16)
      result = hexEncode(std::span<const uint8_t>(digest.data(), 16));
  }
  close(fd);
  return result;
}

}  // namespace proflow::symbolize
