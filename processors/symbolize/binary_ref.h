// How a profile names a binary: by build ids (OTLP mapping attributes process.executable.build_id.*)
// and file name. All fields are untrusted input; the locator validates them before any use.
#pragma once

#include <string>

namespace proflow::symbolize {

struct BinaryRef {
  std::string gnu_build_id;  // hex of the ELF .note.gnu.build-id
  std::string go_build_id;   // `go tool buildid` output
  std::string htlhash;       // 32 hex chars, the eBPF profiler's file id
  std::string path;          // the mapping's file name (often just a base name on another host)
};

}  // namespace proflow::symbolize
