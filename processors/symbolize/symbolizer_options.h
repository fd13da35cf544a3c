// Where symbols come from and how much is cached: the symbolizer library's whole configuration.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "core/component/symbol_source.h"
#include "processors/symbolize/debuginfod_fetcher.h"

namespace proflow::symbolize {

// Symbol sources, tried in the configured order. The first source giving DWARF wins; a source that
// gives only a symbol table is kept as fallback while later sources are tried for DWARF.
enum class SourceKind {
  kDebugDirs,   // <dir>/.build-id/xx/rest.debug
  kBinaries,    // a local binary (binary_dirs, paths) whose id matches, with DWARF inside
  kEmbedded,    // that binary's .gnu_debuglink file, .symtab, .gnu_debugdata
  kDebuginfod,  // debuginfod servers (debuginfo, else the executable)
};

const char* sourceKindName(SourceKind kind);  // "debug_dirs", "binaries", "embedded", "debuginfod"
bool parseSourceKind(const std::string& name, SourceKind* kind);

struct SymbolizerOptions {
  std::vector<std::string> debug_dirs;
  std::vector<std::string> binary_dirs;
  std::vector<std::string> paths;
  bool use_embedded_symbols = true;
  // Also accept a mapping's own file name when it is an existing absolute path (offline CLI use:
  // never on a gateway, where file names come from other hosts).
  bool trust_mapping_paths = false;
  std::vector<SourceKind> order = {SourceKind::kDebugDirs, SourceKind::kBinaries, SourceKind::kEmbedded,
                                   SourceKind::kDebuginfod};
  DebuginfodOptions debuginfod;
  // Asked before every other source (a store in the same process, e.g. the symbolstore extension).
  SymbolSource* symbol_source = nullptr;
  size_t cache_size_bytes = size_t{256} << 20;
  std::chrono::nanoseconds not_found_ttl = std::chrono::minutes(5);
};

}  // namespace proflow::symbolize
