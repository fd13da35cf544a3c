// Test fixtures for the symbolize tests: builds the C/C++ workload of testdata/ with g++ at test
// time, lists addresses inside its functions, and asks llvm-symbolizer-14 for the reference answers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "processors/symbolize/frame.h"

namespace proflow::symbolize::testing {

struct CommandResult {
  int status = -1;
  std::string output;  // stdout and stderr
};
CommandResult run(const std::string& command);

// Empty when `tool` is on PATH, else a message naming the Debian package that provides it.
std::string missingTool(const std::string& tool);

struct Programs {
  std::string dir;
  std::string app;     // PIE C++ executable linking libshape.so
  std::string shlib;   // libshape.so
  std::string cprog;   // C executable
  std::string error;   // non-empty when building failed
};
// Builds the workload into `dir` (g++ -g -O2 -Wl,--build-id).
Programs buildPrograms(const std::string& dir);

// Instruction addresses (ELF virtual) inside the binary's sized function symbols: every `stride`-th
// one, at most `limit`.
std::vector<uint64_t> functionAddresses(const std::string& binary, size_t limit = 100000, size_t stride = 1);

// Builds testdata/goprog (standard library only, offline) into `out`; "" or an error message.
std::string buildGoProgram(const std::string& out, const std::string& ldflags = "");

// llvm-symbolizer-14's inline chains for `addresses` (ELF virtual) of `binary`, same order.
std::vector<Frames> llvmFrames(const std::string& binary, const std::vector<uint64_t>& addresses);

// GNU build id of an ELF file as hex ("" when none).
std::string buildIdOf(const std::string& binary);

// First PT_LOAD segment with execute permission: its file offset and virtual address.
struct TextSegment {
  uint64_t offset = 0, vaddr = 0, memsz = 0;
};
TextSegment textSegment(const std::string& binary);

std::string describe(const Frames& frames);

}  // namespace proflow::symbolize::testing
