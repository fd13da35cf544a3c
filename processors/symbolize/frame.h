// What symbolizing one address yields: the inline chain of source frames, innermost first (the order
// pprof and OTLP use for Location.lines). Plain types: no pipeline or OTLP types at this layer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace proflow::symbolize {

struct Frame {
  std::string function;     // demangled name, e.g. "ns::Foo<int>::bar(int)"
  std::string system_name;  // the mangled (linkage) name when it differs from `function`
  std::string file;         // source file as the DWARF names it (absolute when the compiler recorded it)
  int64_t line = 0;         // 1-based; 0 = unknown
  int64_t column = 0;       // 1-based; 0 = unknown

  bool operator==(const Frame&) const = default;
};

// Innermost first: frames[0] is the code at the address, the last entry is the real (out-of-line)
// function it was inlined into.
using Frames = std::vector<Frame>;
using FramesPtr = std::shared_ptr<const Frames>;

// How an address relates to the binary.
enum class AddressKind {
  kElfVirtual,  // already an ELF virtual address (the eBPF profiler, llvm-symbolizer input)
  kRuntime,     // a process address: translate with the mapping's start/offset and the PT_LOAD segments
};

// The mapping a runtime address came from (pprof Mapping / OTLP Mapping fields).
struct MappingRange {
  uint64_t memory_start = 0;
  uint64_t memory_limit = 0;
  uint64_t file_offset = 0;
};

}  // namespace proflow::symbolize
