// The `kafka` receiver: a consumer group member (replicas share group_id, so each partition is read
// by one of them). Each record is decoded and validated as an OTLP profiles request and handed to
// the pipelines; its offset is committed only once the pipeline accepted it (at least once: a crash
// before the commit means the record is read again). Accepted offsets are committed together every
// commit_interval, and at once for partitions being revoked and at shutdown. When the pipeline refuses, the
// record's partition is paused and rewound to that record, then resumed after pause_duration, so
// backpressure delays data instead of losing it. Records that can never be accepted (undecodable,
// or refused for good) are skipped, logged and counted, and so is a record that max_deliver members
// began handling and never finished (see AttemptLedger). Consumer lag is exposed in /metrics.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "core/brokers/kafka_conf.h"
#include "core/brokers/kafka_events.h"
#include "core/component/factory.h"
#include "core/telemetry/log_throttle.h"
#include "receivers/kafka/attempt_ledger.h"
#include "receivers/kafka/config.h"

namespace proflow::receivers::kafka {

class KafkaReceiver final : public Receiver {
 public:
  KafkaReceiver(const CreateSettings& settings, KafkaReceiverConfig config, ConsumerPtr next);
  ~KafkaReceiver() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;

  // Called by librdkafka's rebalance callback (on the consumer thread).
  void rebalance(rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t* partitions);

 private:
  enum class Outcome { kDone, kRefused };

  void run();
  Outcome handle(const rd_kafka_message_t* m);
  // Handles `m` under the ledger's count of attempts; kDone also when the record is given up.
  Outcome handleCounted(const Partition& p, const rd_kafka_message_t* m);
  void pausePartition(const rd_kafka_message_t* m);
  void seekTo(const Partition& p, int64_t offset);
  void resumeDue();
  void updateLag();
  // Commits the accepted offsets not committed yet: all of them, or only those of `revoked`
  // (synchronously then, so the partitions' next owner starts after them).
  void commitAccepted(bool due_only, const rd_kafka_topic_partition_list_t* revoked = nullptr);

  CreateSettings settings_;
  KafkaReceiverConfig config_;
  ConsumerPtr next_;
  brokers::KafkaEvents events_;  // outlives the consumer, whose threads report to it
  brokers::KafkaClientPtr consumer_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  telemetry::LogThrottle throttle_;
  // Consumer thread only.
  AttemptLedger ledger_;
  std::map<Partition, std::chrono::steady_clock::time_point> paused_;  // -> when to resume
  std::map<Partition, int64_t> rewind_;       // -> offset of the refused record, until it is read again
  std::map<Partition, int64_t> next_offset_;  // after the last settled record
  std::map<Partition, int64_t> uncommitted_;  // next offsets settled since the last commit
  std::chrono::steady_clock::time_point next_commit_{};
  std::chrono::steady_clock::time_point next_lag_update_{};

  telemetry::Gauge& lag_;
  telemetry::Counter& pauses_;
  telemetry::Counter& poison_;
  telemetry::Gauge& assigned_;
  telemetry::Counter& commits_;
};

}  // namespace proflow::receivers::kafka
