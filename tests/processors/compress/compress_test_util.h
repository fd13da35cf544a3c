// Shared helpers of the compress tests: totals per profile and a processor wired to a recording sink.
#pragma once

#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

#include <map>
#include <memory>
#include <vector>

#include "tests/support/dictionary_builder.h"
#include "core/telemetry/metrics.h"
#include "processors/compress/compress_processor.h"
#include "tests/support/flat_request.h"

namespace proflow::processors::compress {

// Total of every profile keyed by its sample type (values, or 1 per bare timestamp).
inline std::map<std::string, int64_t> totals(const otlp::Request& req) {
  std::map<std::string, int64_t> out;
  const auto& d = req.dictionary();
  for (const auto& rp : req.resource_profiles())
    for (const auto& sp : rp.scope_profiles())
      for (const auto& p : sp.profiles()) {
        auto& t = out[std::string(dictString(d, p.sample_type().type_strindex()))];
        for (const auto& s : p.samples()) {
          if (s.values_size() == 0) t += s.timestamps_unix_nano_size();
          for (int64_t v : s.values()) t += v;
        }
      }
  return out;
}

class Sink : public ProfilesConsumer {
 public:
  Status consume(Batch b) override {
    batches.push_back(std::move(b));
    return Status::ok();
  }
  std::vector<Batch> batches;
};

struct Harness {
  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry telemetry{registry, ComponentKind::kProcessor, "compress"};
  std::shared_ptr<Sink> sink = std::make_shared<Sink>();
  std::unique_ptr<CompressProcessor> processor;

  explicit Harness(const CompressConfig& c) {
    CreateSettings s;
    s.id = {"compress", ""};
    s.kind = ComponentKind::kProcessor;
    s.logger = std::make_shared<spdlog::logger>("compress", std::make_shared<spdlog::sinks::null_sink_mt>());
    s.telemetry = &telemetry;
    processor = std::make_unique<CompressProcessor>(s, c, sink);
  }
  // Runs one request through and returns what came out.
  otlp::Request run(otlp::Request req) {
    EXPECT_TRUE(processor->consume(::proflow::testing::batchOf(std::move(req))).isOk());
    return ::proflow::testing::requestOf(sink->batches.back());
  }
  double metric(const std::string& name) { return registry.value(name, {{"processor", "compress"}}); }
};

}  // namespace proflow::processors::compress
