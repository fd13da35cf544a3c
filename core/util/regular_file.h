// Reading a file that a user or another process controls (a watched directory, a rotated token):
// only a regular file is read, so a FIFO or a device put in its place never blocks the reader nor
// streams forever, and at most a given size is read, even when the file grows meanwhile.
#pragma once

#include <cstdint>
#include <string>

#include "core/util/status.h"

namespace proflow {

struct RegularFileRead {
  uint64_t max_bytes = 0;
  // False: a symbolic link at `path` itself is refused, not followed (links inside the path are).
  bool follow_symlinks = true;
};

// The content of the regular file at `path` in `*out`. The open never waits (O_NONBLOCK) and the
// file is checked on its descriptor: kInvalid when it is not a regular file (or, without
// follow_symlinks, a symbolic link), kTooLarge past max_bytes (its size, or what it grew to while
// read), kUnavailable when it cannot be opened or read (missing, permissions, I/O error).
Status readRegularFile(const std::string& path, const RegularFileRead& how, std::string* out);

}  // namespace proflow
