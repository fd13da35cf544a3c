// glibc malloc settings for a process that decodes and converts profiles all day.
#pragma once

namespace proflow {

// By default glibc hands freed memory at the top of the heap back to the kernel as soon as more than
// 128 KiB is free there. Converting one profile allocates and frees a few MiB (protobuf arena blocks,
// decompressed bytes), so every request paid for brk() shrinking the heap and page faults growing it
// again: ~15% of the CPU time of a small-profile round trip. This keeps up to 4 MiB of free heap top
// for reuse and serves buffers above 4 MiB from mmap (returned to the kernel when freed), so a burst
// of large profiles does not pin memory. Call once at start-up, before threads start.
//
// Both tunings also advise buffers of 4 MiB or more onto transparent huge pages (when the kernel's
// THP mode is "madvise" or "always"): a large profile's columns, written once front to back, then
// fault once per 2 MiB instead of once per 4 KiB. A buffer may hold up to 2 MiB more resident than
// it has touched; it is returned whole when freed. The advice is given by this library's global
// operator new, which is otherwise the standard one (sanitizer builds keep their own).
// GLIBC_TUNABLES=glibc.malloc.hugetlb=0, glibc's own switch, turns the advice off.
void tuneAllocatorForThroughput();

// For a process that converts one large input and exits (`proflow convert`): every buffer comes
// from the heap (no mmap, whatever its size) and freed memory is never returned to the kernel, so
// what one step frees (a parser's grown vectors) is reused by the next instead of faulting in fresh
// pages.
void tuneAllocatorForOneShot();

}  // namespace proflow
