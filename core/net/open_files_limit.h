// Each connection is a file descriptor. The usual soft limit (1024) would cap a gateway at about a
// thousand clients while the hard limit (often 524288 under systemd, 1048576 in containers) allows
// far more, so the daemon raises soft to hard at start.
#pragma once

#include <cstdint>

namespace proflow::net {

struct OpenFilesLimit {
  uint64_t before = 0;  // soft limit found
  uint64_t after = 0;   // soft limit now (== before when already at the hard limit or not allowed)
  bool ok = true;       // false when getrlimit/setrlimit failed
};

// Raises RLIMIT_NOFILE's soft limit to its hard limit.
OpenFilesLimit raiseOpenFilesLimit();

}  // namespace proflow::net
