// A local store of debug files and executables keyed by GNU build id, offered by an extension (the
// `symbolstore` extension) to components in the same process, so the symbolize processor reads
// uploaded symbols from disk instead of asking the store's debuginfod endpoint over HTTP.
//
//   processors:
//     symbolize: { symbol_source: symbolstore }   # id of an extension implementing SymbolSource
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace proflow {

class SymbolSource {
 public:
  enum class Artifact { kDebuginfo, kExecutable };

  virtual ~SymbolSource() = default;
  // Path of a local file holding `artifact` for `build_id` (lower-case hex, already validated), or
  // nullopt. The file was checked (ELF, matching build id) when it was stored; it may be evicted
  // later, so callers open it right away and treat a failed open as a miss. Thread-safe.
  virtual std::optional<std::string> findSymbolFile(std::string_view build_id, Artifact artifact) = 0;
};

}  // namespace proflow
