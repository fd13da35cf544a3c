#include "receivers/self/process_info.h"

#include <elf.h>
#include <fcntl.h>
#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/util/hex.h"

namespace proflow::receivers::self {

namespace {

std::string readSmallFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Fields of /proc/<pid>/task/<tid>/stat: the name is in parentheses (and may hold any byte, so the
// last ')' ends it); start time is field 22.
bool parseStat(const std::string& stat, ThreadInfo* t) {
  const size_t open = stat.find('('), close = stat.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return false;
  t->name = stat.substr(open + 1, close - open - 1);
  std::istringstream rest(stat.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22 && rest >> field; ++i)
    if (i == 22) t->id.start_ticks = std::strtoull(field.c_str(), nullptr, 10);
  return static_cast<bool>(rest);
}

bool readAt(int fd, uint64_t offset, void* out, size_t n) {
  return pread(fd, out, n, static_cast<off_t>(offset)) == static_cast<ssize_t>(n);
}

// The build id in one PT_NOTE segment's bytes.
std::string buildIdInNotes(const std::string& notes) {
  size_t off = 0;
  while (off + sizeof(Elf64_Nhdr) <= notes.size()) {
    Elf64_Nhdr h;
    std::memcpy(&h, notes.data() + off, sizeof h);
    const size_t name_at = off + sizeof h, name_len = (h.n_namesz + 3) & ~size_t{3};
    const size_t desc_at = name_at + name_len, desc_len = (h.n_descsz + 3) & ~size_t{3};
    if (desc_at + h.n_descsz > notes.size()) break;
    if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 && std::memcmp(notes.data() + name_at, "GNU", 4) == 0)
      return hexEncode(std::string_view(notes).substr(desc_at, h.n_descsz));
    off = desc_at + desc_len;
  }
  return "";
}

}  // namespace

std::vector<ThreadInfo> listThreads() {
  std::vector<ThreadInfo> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    ThreadInfo t;
    const std::string name = entry.path().filename().string();
    t.id.tid = std::atoi(name.c_str());
    if (t.id.tid <= 0) continue;
    if (!parseStat(readSmallFile(entry.path().string() + "/stat"), &t)) continue;  // exited meanwhile
    out.push_back(std::move(t));
  }
  std::sort(out.begin(), out.end(), [](const ThreadInfo& a, const ThreadInfo& b) { return a.id < b.id; });
  return out;
}

std::vector<MapEntry> parseMaps(const std::string& text) {
  std::vector<MapEntry> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    MapEntry m;
    char perms[8] = {};
    unsigned long long start = 0, limit = 0, offset = 0, inode = 0;
    int path_at = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx %7s %llx %*s %llu %n", &start, &limit, perms, &offset, &inode,
                    &path_at) < 5)
      continue;
    m.start = start;
    m.limit = limit;
    m.offset = offset;
    m.inode = inode;
    m.read = perms[0] == 'r';
    m.write = perms[1] == 'w';
    m.exec = perms[2] == 'x';
    if (path_at > 0 && static_cast<size_t>(path_at) < line.size()) m.path = line.substr(path_at);
    out.push_back(std::move(m));
  }
  return out;
}

std::vector<MapEntry> readMaps() { return parseMaps(readSmallFile("/proc/self/maps")); }

std::vector<MemoryRange> writableRanges(const std::vector<MapEntry>& maps) {
  std::vector<MemoryRange> out;
  for (const MapEntry& m : maps) {
    if (!m.read || !m.write || m.path == "[vvar]") continue;
    if (!out.empty() && out.back().hi == m.start)
      out.back().hi = m.limit;
    else
      out.push_back({m.start, m.limit});
  }
  std::sort(out.begin(), out.end(), [](const MemoryRange& a, const MemoryRange& b) { return a.lo < b.lo; });
  return out;
}

std::string gnuBuildId(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return "";
  std::string id;
  Elf64_Ehdr eh;
  if (readAt(fd, 0, &eh, sizeof eh) && std::memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
      eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(Elf64_Phdr) && eh.e_phnum < 512) {
    for (unsigned i = 0; i < eh.e_phnum && id.empty(); ++i) {
      Elf64_Phdr ph;
      if (!readAt(fd, eh.e_phoff + uint64_t{i} * sizeof ph, &ph, sizeof ph)) break;
      if (ph.p_type != PT_NOTE || ph.p_filesz == 0 || ph.p_filesz > (1u << 16)) continue;
      std::string notes(ph.p_filesz, '\0');
      if (readAt(fd, ph.p_offset, notes.data(), notes.size())) id = buildIdInNotes(notes);
    }
  }
  close(fd);
  return id;
}

#if defined(__SANITIZE_ADDRESS__)
// AddressSanitizer replaces malloc, and its mallinfo2 answers zeros: ask its allocator instead
// (libasan's interface; GCC ships no header declaring it).
extern "C" size_t __sanitizer_get_current_allocated_bytes();
extern "C" size_t __sanitizer_get_heap_size();
extern "C" size_t __sanitizer_get_free_bytes();
#endif

HeapFigures readHeap() {
  HeapFigures h;
#if defined(__SANITIZE_ADDRESS__)
  h.in_use_bytes = __sanitizer_get_current_allocated_bytes();
  h.arena_bytes = __sanitizer_get_heap_size();
  h.free_bytes = __sanitizer_get_free_bytes();
#else
  const struct mallinfo2 mi = mallinfo2();
  h.in_use_bytes = mi.uordblks + mi.hblkhd;
  h.arena_bytes = mi.arena;
  h.mmap_bytes = mi.hblkhd;
  h.free_bytes = mi.fordblks;
#endif
  unsigned long long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%llu %llu", &pages, &resident) == 2)
      h.rss_bytes = resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    std::fclose(f);
  }
  return h;
}

}  // namespace proflow::receivers::self
