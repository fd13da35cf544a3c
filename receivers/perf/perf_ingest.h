// Turns one perf recording (perf.data or perf script text; raw or gzip/zstd) into a flat batch and
// hands it to the pipelines. Shared by the HTTP endpoint and the directory watcher.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "core/consumer.h"
#include "core/telemetry/component_telemetry.h"
#include "receivers/perf/config.h"

namespace proflow::receivers::perf {

class PerfIngest {
 public:
  PerfIngest(const PerfReceiverConfig& config, ConsumerPtr next, telemetry::ComponentTelemetry& telemetry);

  // kInvalidArgument: not a (complete) recording, with the decoder's message; kPayloadTooLarge:
  // over the limits; a retryable status: the pipeline refused, try again later. `extra` adds
  // resource attributes. `end_time_unix_nano`: when the recording ended (0 = now), for recordings
  // without a clock anchor. `reserve` (optional) is asked for the total bytes the request holds.
  Status ingest(std::string_view body, const std::multimap<std::string, std::string>& extra = {},
                uint64_t end_time_unix_nano = 0, std::function<Status(size_t bytes)> reserve = {});

 private:
  const PerfReceiverConfig& config_;
  ConsumerPtr next_;
  telemetry::ComponentTelemetry& telemetry_;
  telemetry::Counter& lost_;
};

}  // namespace proflow::receivers::perf
