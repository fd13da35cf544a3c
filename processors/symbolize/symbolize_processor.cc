#include "processors/symbolize/symbolize_processor.h"

#include <boost/asio/post.hpp>

#include <future>

#include "processors/symbolize/otlp_symbolizer.h"

namespace proflow::symbolize {

SymbolizeMetrics::SymbolizeMetrics(telemetry::ComponentTelemetry* t) {
  if (t == nullptr) return;
  symbolized = &t->counter("symbolize_locations_symbolized_total", "Locations that got functions and lines");
  not_found = &t->counter("symbolize_locations_not_found_total",
                          "Locations left unsymbolized: no symbols for the binary or the address");
  errors = &t->counter("symbolize_locations_errors_total",
                       "Locations left unsymbolized because the symbol file found was unusable");
  cache_hits = &t->counter("symbolize_cache_hits_total", "Binary lookups answered by the symbol cache");
  cache_misses = &t->counter("symbolize_cache_misses_total", "Binary lookups that had to locate symbols");
  fetches = &t->counter("symbolize_debuginfod_fetches_total", "Files obtained from debuginfod");
  fetched_bytes = &t->counter("symbolize_debuginfod_bytes_total", "Bytes of files obtained from debuginfod");
}

void SymbolizeMetrics::onCacheHit() {
  if (cache_hits) cache_hits->add();
}
void SymbolizeMetrics::onCacheMiss() {
  if (cache_misses) cache_misses->add();
}
void SymbolizeMetrics::onDebuginfodFetch(uint64_t bytes) {
  if (fetches) fetches->add();
  if (fetched_bytes) fetched_bytes->add(bytes);
}

SymbolizeProcessor::SymbolizeProcessor(const CreateSettings& settings, const SymbolizeConfig& config,
                                       ConsumerPtr next)
    : logger_(settings.logger),
      runtime_(settings.runtime),
      next_(std::move(next)),
      mode_(addressMode(config)),
      metrics_(settings.telemetry),
      symbolizer_(toSymbolizerOptions(config), &metrics_),
      symbol_source_id_(config.symbol_source) {}

Status SymbolizeProcessor::start(Host& host) {
  if (symbol_source_id_.empty()) return Status::ok();
  auto id = ComponentId::parse(symbol_source_id_);
  auto* source = id ? dynamic_cast<SymbolSource*>(host.extension(*id)) : nullptr;
  if (source == nullptr)
    return Status::invalid("symbol_source '" + symbol_source_id_ +
                           "' is not a started symbol store extension (list it in service.extensions)");
  symbolizer_.setSymbolSource(source);
  return Status::ok();
}

void SymbolizeProcessor::shutdown(Deadline) {}

void SymbolizeProcessor::symbolize(Batch& batch) {
  SymbolizeCounts c = symbolizeBatch(symbolizer_, batch.mutableData(), mode_);
  if (metrics_.symbolized) {
    metrics_.symbolized->add(c.symbolized);
    metrics_.not_found->add(c.not_found);
    metrics_.errors->add(c.errors);
  }
  if (c.errors > 0 && logger_) logger_->debug("symbolize: {} locations had unusable symbol files", c.errors);
}

Status SymbolizeProcessor::consume(Batch batch) {
  // Already on a worker (or no runtime, as in the CLI): work here. Otherwise hand the work to the
  // pool and wait, so the caller's network thread does no file or DWARF work itself.
  if (runtime_ == nullptr || runtime_->workers().get_executor().running_in_this_thread()) {
    symbolize(batch);
  } else {
    std::promise<void> done;
    boost::asio::post(runtime_->workers(), [&] {
      try {
        symbolize(batch);
        done.set_value();
      } catch (...) {
        done.set_exception(std::current_exception());
      }
    });
    try {
      done.get_future().get();
    } catch (const std::exception& e) {
      // Symbolization is best effort: pass the batch on as it is.
      if (logger_) logger_->warn("symbolize: {}", e.what());
    }
  }
  return next_->consume(std::move(batch));
}

}  // namespace proflow::symbolize
