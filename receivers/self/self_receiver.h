// The `self` receiver: samples every thread of this process (sampler.h), one batch per interval.
//
// Two threads: "self-sampler" rescans the threads, drains the sampler every 100 ms and hands the
// interval's samples over; "self-emit" builds the batch and sends it down the pipelines, so a slow
// pipeline (a first symbolization) never stops the draining. Both are sampled like any other.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "core/component/factory.h"
#include "receivers/self/config.h"
#include "receivers/self/sampler.h"
#include "receivers/self/self_profile.h"

namespace proflow::receivers::self {

class SelfReceiver final : public Receiver {
 public:
  SelfReceiver(const CreateSettings& settings, SelfReceiverConfig config, ConsumerPtr next);
  ~SelfReceiver() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;
  // "perf_event" or "timer" once started.
  std::string mode() const;

 private:
  void samplerLoop();
  void emitLoop();
  void handOver(SampleSet& samples, const std::unordered_map<int32_t, std::string>& names);
  void addOwnCpu();

  CreateSettings settings_;
  SelfReceiverConfig config_;
  ConsumerPtr next_;
  std::unique_ptr<Sampler> sampler_;
  std::unique_ptr<SelfProfileWriter> writer_;
  std::thread sampler_thread_, emit_thread_;
  std::atomic<bool> stopping_{false};

  std::mutex mu_;
  std::condition_variable ready_cv_;
  bool has_ready_ = false;  // guarded by mu_, with the two below
  SampleSet ready_;
  std::unordered_map<int32_t, std::string> ready_names_;

  telemetry::Counter& samples_;
  telemetry::Counter& lost_;
  telemetry::Counter& own_cpu_ns_;
  telemetry::Gauge& threads_;
  telemetry::Gauge& mode_;
  telemetry::Gauge& heap_in_use_;
  telemetry::Gauge& heap_arena_;
  telemetry::Gauge& heap_mmap_;
  telemetry::Gauge& rss_;
};

}  // namespace proflow::receivers::self
