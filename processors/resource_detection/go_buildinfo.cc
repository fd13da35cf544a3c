#include "processors/resource_detection/go_buildinfo.h"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <vector>

#include "processors/resource_detection/proc_files.h"

namespace proflow::processors::resourcedetection {
namespace {

constexpr std::string_view kGoMagic("\xff Go buildinf:", 14);
constexpr size_t kHeaderSize = 32;       // magic, pointer size, flags, then two pointer slots
constexpr uint8_t kFlagInlineStrings = 0x2;
constexpr size_t kMaxSections = 1 << 16;  // more is not a real executable; do not allocate for it
constexpr size_t kMaxNameTable = 1 << 20;

// One uvarint-length-prefixed string from the front of `in`; nullopt when truncated.
std::optional<std::string_view> takeString(std::string_view& in) {
  uint64_t len = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (in.empty()) return std::nullopt;
    const auto byte = static_cast<uint8_t>(in.front());
    in.remove_prefix(1);
    len |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      if (len > in.size()) return std::nullopt;
      std::string_view s = in.substr(0, len);
      in.remove_prefix(len);
      return s;
    }
  }
  return std::nullopt;
}

bool readAt(int fd, void* buf, size_t n, uint64_t offset) {
  auto* p = static_cast<char*>(buf);
  while (n > 0) {
    ssize_t r = ::pread(fd, p, n, static_cast<off_t>(offset));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= static_cast<size_t>(r);
    offset += static_cast<uint64_t>(r);
  }
  return true;
}

template <class Ehdr, class Shdr>
std::optional<std::string> findSection(int fd, std::string_view name, size_t max_bytes) {
  Ehdr eh;
  if (!readAt(fd, &eh, sizeof eh, 0)) return std::nullopt;
  // e_shnum == 0 also means "more than 0xff00 sections" (count in section 0); no Go binary has that.
  if (eh.e_shentsize != sizeof(Shdr) || eh.e_shnum == 0 || eh.e_shnum > kMaxSections || eh.e_shstrndx >= eh.e_shnum)
    return std::nullopt;
  std::vector<Shdr> sections(eh.e_shnum);
  if (!readAt(fd, sections.data(), sizeof(Shdr) * sections.size(), eh.e_shoff)) return std::nullopt;
  const Shdr& names_hdr = sections[eh.e_shstrndx];
  if (names_hdr.sh_size > kMaxNameTable) return std::nullopt;
  std::string names(names_hdr.sh_size, '\0');
  if (!readAt(fd, names.data(), names.size(), names_hdr.sh_offset)) return std::nullopt;
  for (const Shdr& s : sections) {
    if (s.sh_type == SHT_NOBITS || s.sh_name >= names.size()) continue;
    if (std::string_view(names.c_str() + s.sh_name) != name) continue;
    std::string data(std::min<uint64_t>(s.sh_size, max_bytes), '\0');
    if (!readAt(fd, data.data(), data.size(), s.sh_offset)) return std::nullopt;
    return data;
  }
  return std::nullopt;
}

}  // namespace

std::optional<GoBuildInfo> parseGoBuildInfo(std::string_view section) {
  if (section.size() < kHeaderSize || !section.starts_with(kGoMagic)) return std::nullopt;
  if ((static_cast<uint8_t>(section[15]) & kFlagInlineStrings) == 0) return std::nullopt;
  std::string_view rest = section.substr(kHeaderSize);
  auto version = takeString(rest);
  if (!version || version->empty()) return std::nullopt;
  GoBuildInfo info{std::string(*version), "", ""};
  // Module info is optional for our purpose: a truncated one still leaves the version.
  std::string_view mod = takeString(rest).value_or("");
  while (!mod.empty()) {
    std::string_view line = takeLine(mod);
    if (line.starts_with("build\tGOOS=")) info.goos = std::string(line.substr(11));
    if (line.starts_with("build\tGOARCH=")) info.goarch = std::string(line.substr(13));
  }
  return info;
}

std::optional<std::string> readElfSection(const std::string& path, std::string_view name, size_t max_bytes) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  unsigned char ident[EI_NIDENT];
  std::optional<std::string> out;
  // A process runs on this machine, so its executable has this machine's byte order.
  const unsigned char host_data = std::endian::native == std::endian::little ? ELFDATA2LSB : ELFDATA2MSB;
  if (readAt(fd, ident, sizeof ident, 0) && std::memcmp(ident, ELFMAG, SELFMAG) == 0 && ident[EI_DATA] == host_data) {
    if (ident[EI_CLASS] == ELFCLASS64) out = findSection<Elf64_Ehdr, Elf64_Shdr>(fd, name, max_bytes);
    if (ident[EI_CLASS] == ELFCLASS32) out = findSection<Elf32_Ehdr, Elf32_Shdr>(fd, name, max_bytes);
  }
  ::close(fd);
  return out;
}

}  // namespace proflow::processors::resourcedetection
