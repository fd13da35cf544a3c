// The symbolize processor: native addresses in each batch become functions, files, lines and inline
// frames before the batch goes downstream. The work (file reads, DWARF, debuginfod downloads) runs on
// the runtime's worker pool, never on the network thread that handed the batch in.
#pragma once

#include <memory>

#include "core/component/factory.h"
#include "processors/symbolize/config.h"
#include "processors/symbolize/symbolizer.h"

namespace proflow::symbolize {

// Metrics of one processor instance, fed by the symbolizer's hooks.
class SymbolizeMetrics : public SymbolizerObserver {
 public:
  explicit SymbolizeMetrics(telemetry::ComponentTelemetry* t);
  void onCacheHit() override;
  void onCacheMiss() override;
  void onDebuginfodFetch(uint64_t bytes) override;

  telemetry::Counter* symbolized = nullptr;
  telemetry::Counter* not_found = nullptr;
  telemetry::Counter* errors = nullptr;
  telemetry::Counter* cache_hits = nullptr;
  telemetry::Counter* cache_misses = nullptr;
  telemetry::Counter* fetches = nullptr;
  telemetry::Counter* fetched_bytes = nullptr;
};

class SymbolizeProcessor : public Processor {
 public:
  SymbolizeProcessor(const CreateSettings& settings, const SymbolizeConfig& config, ConsumerPtr next);

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;
  Capabilities capabilities() const override { return {.mutates_data = true}; }
  Status consume(Batch batch) override;

 private:
  void symbolize(Batch& batch);

  std::shared_ptr<spdlog::logger> logger_;
  Runtime* runtime_;
  ConsumerPtr next_;
  AddressMode mode_;
  SymbolizeMetrics metrics_;
  Symbolizer symbolizer_;
  std::string symbol_source_id_;
};

}  // namespace proflow::symbolize
