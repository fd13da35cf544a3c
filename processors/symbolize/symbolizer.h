// The symbolizer library's entry point: (binary, address, address kind) -> inline chain of frames.
// No pipeline or OTLP types here, so the CLI, benchmarks and the processor share it.
//
//   symbolize::SymbolizerOptions opts;
//   opts.debug_dirs = {"/usr/lib/debug"};
//   symbolize::Symbolizer s(opts);
//   auto r = s.symbolize({.gnu_build_id = "c89b...93"}, 0x1139, symbolize::AddressKind::kElfVirtual);
//   if (r.status == symbolize::LookupStatus::kFound && !r.frames->empty()) ... (*r.frames)[0].function
//
// Thread-safe. Lookups block on file and network I/O (debuginfod): call it from worker threads.
#pragma once

#include <memory>
#include <string>

#include "processors/symbolize/binary_ref.h"
#include "processors/symbolize/frame.h"
#include "processors/symbolize/module_cache.h"
#include "processors/symbolize/symbol_locator.h"
#include "processors/symbolize/symbolizer_options.h"

namespace proflow::symbolize {

// Optional hooks for metrics.
class SymbolizerObserver : public LocatorObserver {
 public:
  virtual void onCacheHit() {}
  virtual void onCacheMiss() {}
  void onDebuginfodFetch(uint64_t) override {}
};

class Symbolizer {
 public:
  explicit Symbolizer(SymbolizerOptions options, SymbolizerObserver* observer = nullptr);

  // The symbols of one binary, from the cache or located now. kNotFound when no source has the
  // binary or no id in `ref` is valid; kError when a file was found but is unusable (corrupt ELF).
  LocateResult module(const BinaryRef& ref);

  struct Result {
    LookupStatus status = LookupStatus::kNotFound;  // kFound with empty frames: no symbol covers it
    FramesPtr frames;
    std::string error;
  };
  Result symbolize(const BinaryRef& ref, uint64_t address, AddressKind kind, const MappingRange& mapping = {});

  // Frames of an address in a module returned by module(); empty when nothing covers it.
  static FramesPtr symbolize(ElfModule& module, uint64_t address, AddressKind kind, const MappingRange& mapping);

  const SymbolizerOptions& options() const { return options_; }
  // Before the first lookup (the processor's start()): the in-process store asked first.
  void setSymbolSource(SymbolSource* source) { options_.symbol_source = source; }

 private:
  // Validated copy of `ref` and its cache key; false when nothing in it is usable.
  bool normalize(const BinaryRef& ref, BinaryRef* out, std::string* key) const;

  SymbolizerOptions options_;
  SymbolizerObserver* observer_;
  SymbolLocator locator_;
  ModuleCache cache_;
};

}  // namespace proflow::symbolize
