// YAML configuration of the symbolize processor (see README.md for an example).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/config_reader.h"
#include "processors/symbolize/symbolizer_options.h"

namespace proflow::symbolize {

struct DebuginfodConfig {
  std::vector<std::string> urls;
  config::Duration timeout = std::chrono::seconds(30);
  std::string cache_dir;
  config::ByteSize max_size = 0;

  template <class V>
  void visit(V& v) {
    v.field("urls", urls, "debuginfod server base URLs, tried in order; empty disables debuginfod");
    v.field("timeout", timeout, "deadline of one download, e.g. 30s");
    v.field("cache_dir", cache_dir, "where downloads are kept; empty = libdebuginfod's default");
    v.field("max_size", max_size, "largest file to download, e.g. 2GiB; 0 = no limit");
  }
};

struct SymbolizeConfig {
  std::vector<std::string> debug_dirs = {"/usr/lib/debug"};
  std::vector<std::string> binary_dirs;
  std::vector<std::string> paths;
  bool use_embedded_symbols = true;
  std::vector<std::string> order = {"debug_dirs", "binaries", "embedded", "debuginfod"};
  std::string address_kind = "auto";
  DebuginfodConfig debuginfod;
  int64_t cache_size_mb = 256;
  config::Duration not_found_ttl = std::chrono::minutes(5);
  std::string symbol_source;  // id of an extension implementing SymbolSource; "" = none

  template <class V>
  void visit(V& v) {
    v.field("debug_dirs", debug_dirs, "directories laid out as .build-id/xx/rest.debug");
    v.field("binary_dirs", binary_dirs, "directories of local binaries, matched by build id");
    v.field("paths", paths, "local binaries, matched by build id");
    v.field("use_embedded_symbols", use_embedded_symbols,
            "use a local binary's own DWARF, .symtab, .gnu_debugdata and .gnu_debuglink file");
    v.field("order", order, "symbol sources in the order tried: debug_dirs, binaries, embedded, debuginfod");
    v.field("address_kind", address_kind,
            "auto, runtime (process addresses, pprof) or elf (ELF virtual addresses, eBPF profiler)");
    v.field("debuginfod", debuginfod, "debuginfod servers");
    v.field("cache_size_mb", cache_size_mb, "memory budget of the per-binary symbol cache");
    v.field("not_found_ttl", not_found_ttl, "how long a binary nobody had is not looked up again");
    v.field("symbol_source", symbol_source,
            "id of an extension storing symbols in this process (e.g. symbolstore), asked before every other source");
  }
  void validate(config::ValidationContext& ctx) const;
};

// How the processor reads location addresses.
enum class AddressMode { kAuto, kRuntime, kElf };
AddressMode addressMode(const SymbolizeConfig& c);

SymbolizerOptions toSymbolizerOptions(const SymbolizeConfig& c);

}  // namespace proflow::symbolize
