// What the receiver reads about its own process: threads (/proc/self/task), memory maps
// (/proc/self/maps), build ids of mapped ELF files, and the allocator's heap figures.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "receivers/self/frame_walker.h"
#include "receivers/self/sampler.h"

namespace proflow::receivers::self {

struct ThreadInfo {
  ThreadId id;
  std::string name;  // comm: what pthread_setname_np set, else the executable's name
};

// Threads of this process now. Threads that exit while the directory is read are left out.
std::vector<ThreadInfo> listThreads();

// One line of /proc/self/maps.
struct MapEntry {
  uint64_t start = 0, limit = 0, offset = 0, inode = 0;
  bool read = false, write = false, exec = false;
  std::string path;  // "" for anonymous memory; "[stack]", "[vdso]"... for the kernel's
};

std::vector<MapEntry> readMaps();
// `maps` parsed from text (tests).
std::vector<MapEntry> parseMaps(const std::string& text);

// Readable and writable ranges (thread stacks among them), sorted, adjacent ones joined: the
// bounds the timer mode's stack walk checks every frame pointer against.
std::vector<MemoryRange> writableRanges(const std::vector<MapEntry>& maps);

// The GNU build id of an ELF file (NT_GNU_BUILD_ID note) as lowercase hex; "" when the file is
// not readable, not ELF or has none.
std::string gnuBuildId(const std::string& path);

struct HeapFigures {
  uint64_t in_use_bytes = 0;  // mallinfo2: allocated by malloc, arena and mmapped chunks
  uint64_t arena_bytes = 0;   // obtained from the system with brk/arena heaps
  uint64_t mmap_bytes = 0;    // large allocations served by mmap
  uint64_t free_bytes = 0;    // free chunks the allocator keeps
  uint64_t rss_bytes = 0;     // resident set of the whole process (/proc/self/statm)
};
HeapFigures readHeap();

}  // namespace proflow::receivers::self
