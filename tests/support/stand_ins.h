// Stand-ins around a component under test: a consumer that keeps what reaches it (and answers what
// the test sets, e.g. a full queue), and a host without extensions for start().
#pragma once

#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/component/component.h"
#include "core/component/consumer.h"
#include "core/component/factory.h"

namespace proflow::testing {

class CaptureConsumer final : public ProfilesConsumer {
 public:
  // Keeps the batch unless `answer` is set to a refusal, which is returned instead.
  Status consume(Batch b) override {
    std::lock_guard lock(mu);
    if (!answer.isOk()) return answer;
    batches.push_back(std::move(b));
    return Status::ok();
  }
  size_t count() {
    std::lock_guard lock(mu);
    return batches.size();
  }

  std::mutex mu;
  std::vector<Batch> batches;
  Status answer;
};

// Settings of a processor under test: a logger that writes nothing, `telemetry` for its counters.
inline CreateSettings processorSettings(const std::string& type, telemetry::ComponentTelemetry* telemetry) {
  CreateSettings s;
  s.id = {type, ""};
  s.kind = ComponentKind::kProcessor;
  s.logger = std::make_shared<spdlog::logger>(type, std::make_shared<spdlog::sinks::null_sink_mt>());
  s.telemetry = telemetry;
  return s;
}

class NullHost final : public Host {
 public:
  void reportFatalError(const ComponentId&, const Status&) override {}
};

}  // namespace proflow::testing
