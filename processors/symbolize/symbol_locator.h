// Finds and opens the symbols of one binary, trying the configured sources in order.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "processors/symbolize/binary_index.h"
#include "processors/symbolize/binary_ref.h"
#include "processors/symbolize/debuginfod_fetcher.h"
#include "processors/symbolize/elf_module.h"
#include "processors/symbolize/symbolizer_options.h"

namespace proflow::symbolize {

enum class LookupStatus { kFound, kNotFound, kError };

struct LocateResult {
  LookupStatus status = LookupStatus::kNotFound;
  std::shared_ptr<ElfModule> module;
  std::string error;  // for kError: what was wrong with the file(s) found
};

// Told about remote fetches, for metrics.
class LocatorObserver {
 public:
  virtual ~LocatorObserver() = default;
  virtual void onDebuginfodFetch(uint64_t bytes) = 0;
};

class SymbolLocator {
 public:
  SymbolLocator(const SymbolizerOptions& options, LocatorObserver* observer);

  // `ref` must hold normalized ids only (the symbolizer validates them).
  LocateResult locate(const BinaryRef& ref);

 private:
  struct Attempt;
  void tryStore(const std::string& gnu, Attempt& a);
  void tryDebugDirs(const std::string& gnu, Attempt& a);
  void tryBinary(Attempt& a);
  void tryEmbedded(Attempt& a);
  void tryDebuginfod(const std::string& gnu, Attempt& a);
  std::optional<std::string> findDebuglink(const std::string& binary, const std::string& gnu) const;

  const SymbolizerOptions& options_;
  LocatorObserver* observer_;
  BinaryIndex index_;
  DebuginfodFetcher debuginfod_;
};

}  // namespace proflow::symbolize
