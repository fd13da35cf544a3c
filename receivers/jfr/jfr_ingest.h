// Turns one JFR recording (raw or gzip/zstd) into a flat batch and hands it to the pipelines.
// Shared by the HTTP endpoint and the directory watcher.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "core/consumer.h"
#include "core/telemetry/component_telemetry.h"
#include "receivers/jfr/config.h"

namespace proflow::receivers::jfr {

class JfrIngest {
 public:
  JfrIngest(const JfrReceiverConfig& config, ConsumerPtr next, telemetry::ComponentTelemetry& telemetry)
      : config_(config), next_(std::move(next)), telemetry_(telemetry) {}

  // kInvalidArgument: not a (complete) recording; kPayloadTooLarge: over the limits; a retryable
  // status: the pipeline refused, try again later. `extra` adds resource attributes (e.g. query).
  // `reserve` (optional) is asked for the total bytes the request holds (body, inflated recording,
  // conversion) before they are allocated; its refusal is returned as is.
  Status ingest(std::string_view body, const std::multimap<std::string, std::string>& extra = {},
                std::function<Status(size_t bytes)> reserve = {});

 private:
  const JfrReceiverConfig& config_;
  ConsumerPtr next_;
  telemetry::ComponentTelemetry& telemetry_;
};

}  // namespace proflow::receivers::jfr
