// Running one broker component alone in a test: settings with real telemetry, a host, and a
// pipeline stand-in that records what it accepted and can be told to refuse.
#pragma once

#include <spdlog/spdlog.h>

#include <atomic>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "core/component/factory.h"
#include "core/telemetry/component_telemetry.h"
#include "tests/support/profile_builder.h"
#include "tests/support/stand_ins.h"
#include "tests/support/flat_request.h"

namespace proflow::testing {

// The pipeline after a receiver: accepts and records, or refuses with `answer` while `refuse` > 0
// (each refusal decrements it; -1 refuses until told otherwise), and refuses every batch holding
// the service set with refuseService until it is cleared.
class ScriptedPipeline final : public ProfilesConsumer {
 public:
  Status consume(Batch batch) override {
    std::lock_guard lock(mu);
    ++calls;
    const otlp::Request request = ::proflow::testing::requestOf(batch);
    bool refused_service = false;
    for (int i = 0; i < request.resource_profiles_size() && !refused_service; ++i)
      refused_service = !refused.empty() && serviceName(request, i) == refused;
    if (refuse != 0 || refused_service) {
      if (refuse > 0) --refuse;
      ++refusals;
      return answer;
    }
    for (int i = 0; i < request.resource_profiles_size(); ++i) services.push_back(serviceName(request, i));
    return Status::ok();
  }
  std::vector<std::string> accepted() {
    std::lock_guard lock(mu);
    return services;
  }
  std::set<std::string> acceptedSet() {
    auto v = accepted();
    return {v.begin(), v.end()};
  }
  void setRefuse(int n, Status s = Status::exhausted("downstream full")) {
    std::lock_guard lock(mu);
    refuse = n;
    answer = std::move(s);
  }
  // "" accepts it again.
  void refuseService(std::string service, Status s = Status::exhausted("downstream full")) {
    std::lock_guard lock(mu);
    refused = std::move(service);
    answer = std::move(s);
  }
  int refusalCount() {
    std::lock_guard lock(mu);
    return refusals;
  }

 private:
  std::mutex mu;
  std::vector<std::string> services;
  int refuse = 0, refusals = 0, calls = 0;
  std::string refused;
  Status answer;
};

// Telemetry of one component instance, readable by metric name.
struct ComponentHarness {
  explicit ComponentHarness(ComponentKind kind, const std::string& type)
      : telemetry(registry, kind, type),
        settings{ComponentId{type, ""}, kind, spdlog::default_logger(), &telemetry, nullptr},
        label(componentKindName(kind)),
        type(type) {}
  double metric(const std::string& name) const { return registry.value(name, {{label, type}}); }

  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry telemetry;
  CreateSettings settings;
  NullHost host;
  std::string label, type;
};

inline Batch numbered(const std::string& service, int samples = 3) { return ::proflow::testing::batchOf(makeRequest(service, {makeProfile(samples)})); }

}  // namespace proflow::testing
