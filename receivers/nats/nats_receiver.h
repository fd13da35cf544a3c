// The `nats` receiver: fetches batches of messages from a durable JetStream pull consumer (shared by
// every replica, so each message goes to one of them), decodes and validates each as an OTLP
// profiles request, and hands it to the pipelines. A message is acknowledged only once the pipeline
// accepted it; a refusal naks it with a delay (redelivered later, to this or another replica) and
// pauses fetching, so backpressure never loses data. Messages that can never be accepted (not
// decodable, permanently refused, still refused after max_deliver deliveries, or delivered more
// than max_deliver times without being settled: their receivers died on them) go to the dead
// letter subject and are terminated, counted.
#pragma once

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "core/brokers/nats_connection.h"
#include "core/component/factory.h"
#include "core/telemetry/log_throttle.h"
#include "receivers/nats/config.h"

namespace proflow::receivers::nats {

class NatsReceiver final : public Receiver {
 public:
  NatsReceiver(const CreateSettings& settings, NatsReceiverConfig config, ConsumerPtr next);
  ~NatsReceiver() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;

 private:
  void run();
  Status subscribe();
  // Settles one message (its `delivered`-th delivery); false when the pipeline refused it for now
  // (fetching pauses).
  bool handle(natsMsg* msg, uint64_t delivered);
  void deadLetter(natsMsg* msg, const std::string& reason);
  // Sleeps up to `d`, or less when shutdown starts; false when stopping.
  bool pause(std::chrono::nanoseconds d);

  CreateSettings settings_;
  NatsReceiverConfig config_;
  ConsumerPtr next_;
  brokers::NatsConnectionPtr conn_;
  jsCtx* js_ = nullptr;
  natsSubscription* sub_ = nullptr;
  std::thread thread_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::atomic<bool> stopping_{false};
  // Receiver thread only: fetch one message at a time (after a redelivery, and at start).
  bool one_at_a_time_ = true;
  telemetry::LogThrottle throttle_;

  telemetry::Counter& redelivered_;
  telemetry::Counter& naks_;
  telemetry::Counter& dead_lettered_;
  telemetry::Gauge& pending_;
};

}  // namespace proflow::receivers::nats
