// Builds the pprof receiver in-process with a real Runtime, real telemetry and a collecting consumer.
#pragma once

#include <gtest/gtest.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <string>
#include <memory>
#include <mutex>
#include <vector>

#include "core/component/factory.h"
#include "core/runtime/runtime.h"
#include "core/telemetry/metrics.h"
#include "receivers/pprof/factory.h"
#include "receivers/pprof/pprof_receiver.h"
#include "tests/support/stand_ins.h"
#include "tests/support/flat_request.h"

namespace proflow::receivers::pprof {

// Keeps every batch; answers `refuse_with` instead when it is set.
class CollectingConsumer final : public ProfilesConsumer {
 public:
  Status consume(Batch b) override {
    std::lock_guard lk(mu_);
    if (!refuse_with_.isOk()) return refuse_with_;
    batches_.push_back(std::move(b));
    cv_.notify_all();
    return Status::ok();
  }
  void refuseWith(Status s) {
    std::lock_guard lk(mu_);
    refuse_with_ = std::move(s);
  }
  std::vector<Batch> batches() const {
    std::lock_guard lk(mu_);
    return batches_;
  }
  // Waits until `done(batches)` holds or the timeout passes; returns whether it held.
  bool waitFor(const std::function<bool(const std::vector<Batch>&)>& done, std::chrono::seconds timeout) {
    std::unique_lock lk(mu_);
    return cv_.wait_for(lk, timeout, [&] { return done(batches_); });
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Batch> batches_;
  Status refuse_with_;
};

using ::proflow::testing::NullHost;

struct Harness {
  Runtime runtime{1, 2};
  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry telemetry{registry, ComponentKind::kReceiver, "pprof"};
  NullHost host;
  std::shared_ptr<CollectingConsumer> sink = std::make_shared<CollectingConsumer>();

  CreateSettings settings() {
    CreateSettings s;
    s.id = {"pprof", ""};
    s.kind = ComponentKind::kReceiver;
    s.logger = std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::null_sink_mt>());
    s.telemetry = &telemetry;
    s.runtime = &runtime;
    return s;
  }

  // Built through the factory, as the service does.
  std::unique_ptr<PprofReceiver> make(const PprofReceiverConfig& c) {
    auto factory = makePprofReceiverFactory();
    auto& rf = dynamic_cast<ReceiverFactory&>(*factory);
    config::TypedConfig<PprofReceiverConfig> typed(c);
    auto r = rf.create(settings(), typed, sink);
    return std::unique_ptr<PprofReceiver>(dynamic_cast<PprofReceiver*>(r.release()));
  }

  double metric(const std::string& name) { return registry.value(name, {{"receiver", "pprof"}}); }
};

}  // namespace proflow::receivers::pprof

namespace proflow::receivers::pprof {

// One OTLP profile as the tests look at it.
struct SeenProfile {
  std::string type;  // sample type, e.g. "alloc_space"
  int samples = 0;
  int64_t min_value = 0, sum = 0;
  uint64_t time_unix_nano = 0, duration_nano = 0;
  std::map<std::string, std::string> resource;  // string resource attributes
};

inline std::vector<SeenProfile> seenProfiles(const std::vector<Batch>& batches) {
  std::vector<SeenProfile> out;
  for (const auto& b : batches) {
    const otlp::Request request = ::proflow::testing::requestOf(b);
    const auto& strings = request.dictionary().string_table();
    for (const auto& rp : request.resource_profiles()) {
      std::map<std::string, std::string> res;
      for (const auto& kv : rp.resource().attributes()) res[kv.key()] = kv.value().string_value();
      for (const auto& sp : rp.scope_profiles())
        for (const auto& p : sp.profiles()) {
          SeenProfile s;
          s.type = strings.at(p.sample_type().type_strindex());
          s.samples = p.samples_size();
          for (const auto& smp : p.samples())
            for (auto v : smp.values()) {
              s.min_value = std::min(s.min_value, v);
              s.sum += v;
            }
          s.time_unix_nano = p.time_unix_nano();
          s.duration_nano = p.duration_nano();
          s.resource = res;
          out.push_back(std::move(s));
        }
    }
  }
  return out;
}

}  // namespace proflow::receivers::pprof
