// Frame-pointer stack walking for the timer mode's signal handler: async-signal-safe (no locks, no
// allocation, no syscalls), and no memory is read outside the interrupted thread's stack.
//
// With frame pointers every frame starts with [saved frame pointer][return address] at the address
// the frame pointer holds (x86-64 and AArch64 alike), and callers' frames lie at higher addresses.
#pragma once

#include <cstddef>
#include <cstdint>

namespace proflow::receivers::self {

// A range of readable, writable memory [lo, hi).
struct MemoryRange {
  uint64_t lo = 0, hi = 0;
};

// The range of `ranges` (sorted by lo, not overlapping) holding `address`, or nullptr.
const MemoryRange* findRange(const MemoryRange* ranges, size_t count, uint64_t address) noexcept;

// Writes `pc`, then the return address of each frame, into `out` (at most `max` entries); returns
// how many. A frame is followed only when its frame pointer is 8-byte aligned, lies in
// [lowest, stack_hi - 16] where `lowest` starts at the stack pointer `sp` and rises past each frame
// read, so the walk only goes toward the stack's base and never reads outside [sp, stack_hi). A
// zero return address ends the chain (the outermost frame).
size_t walkFramePointers(uint64_t pc, uint64_t fp, uint64_t sp, uint64_t stack_hi, uint64_t* out,
                         size_t max) noexcept;

}  // namespace proflow::receivers::self
