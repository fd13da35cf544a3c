// A downstream consumer whose answers a test scripts, recording what it took.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

#include "core/component/consumer.h"
#include "core/component/durable_acceptance.h"
#include "core/component/factory.h"
#include "tests/support/stand_ins.h"

namespace proflow::processors::batch {

using ::proflow::testing::NullHost;

// Settings of a batch processor under test: a silent logger, the given counters, no runtime.
inline CreateSettings batchTestSettings(telemetry::ComponentTelemetry* telemetry) {
  CreateSettings s;
  s.id = {"batch", ""};
  s.kind = ComponentKind::kProcessor;
  s.logger = std::make_shared<spdlog::logger>("batch", std::make_shared<spdlog::sinks::null_sink_mt>());
  s.telemetry = telemetry;
  s.runtime = nullptr;
  return s;
}

class ScriptedSink : public ProfilesConsumer, public DurableAcceptance {
 public:
  // Plays an exporter with a persistent queue (what the batch processor's wait_for_flush: auto sees).
  bool durable = false;
  // While true, consume() blocks (a slow disk or network), so tests can pile callers up behind it.
  void hold(bool on) {
    std::lock_guard lock(mu_);
    held_ = on;
    cv_.notify_all();
  }
  int inFlight() {
    std::lock_guard lock(mu_);
    return in_flight_;
  }

  bool acceptsDurably() const override { return durable; }
  Status consume(Batch b) override {
    std::unique_lock lock(mu_);
    ++in_flight_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return !held_; });
    --in_flight_;
    ++attempts_;
    Status s = default_;
    if (!script_.empty()) {
      s = script_.front();
      script_.pop_front();
    }
    if (s.isOk()) delivered_.push_back(std::move(b));
    cv_.notify_all();
    return s;
  }

  // Answers for the next calls, then `default` for the rest.
  void script(std::vector<Status> answers, Status fallback = Status::ok()) {
    std::lock_guard lock(mu_);
    script_.assign(answers.begin(), answers.end());
    default_ = std::move(fallback);
  }

  // Waits (generously: this is a liveness bound, not a timing assertion) until `pred` holds.
  bool waitFor(const std::function<bool()>& pred) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(60), pred);
  }

  std::vector<Batch> delivered() {
    std::lock_guard lock(mu_);
    return delivered_;
  }
  uint64_t deliveredProfilesLocked() const {
    uint64_t n = 0;
    for (const auto& b : delivered_) n += b.counts().profiles;
    return n;
  }
  uint64_t deliveredProfiles() {
    std::lock_guard lock(mu_);
    return deliveredProfilesLocked();
  }
  int attempts() {
    std::lock_guard lock(mu_);
    return attempts_;
  }
  int attemptsLocked() const { return attempts_; }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Status> script_;
  Status default_;
  std::vector<Batch> delivered_;
  int attempts_ = 0;
  bool held_ = false;
  int in_flight_ = 0;
};

}  // namespace proflow::processors::batch
