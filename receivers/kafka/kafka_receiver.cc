#include "receivers/kafka/kafka_receiver.h"

#include <cstring>
#include <memory>

#include "core/brokers/broker_message.h"
#include "core/runtime/thread_name.h"

namespace proflow::receivers::kafka {
namespace {

struct PartitionListDeleter {
  void operator()(rd_kafka_topic_partition_list_t* l) const { rd_kafka_topic_partition_list_destroy(l); }
};
using PartitionList = std::unique_ptr<rd_kafka_topic_partition_list_t, PartitionListDeleter>;

PartitionList listOf(const char* topic, int32_t partition, int64_t offset) {
  PartitionList l(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_list_add(l.get(), topic, partition)->offset = offset;
  return l;
}

void onRebalance(rd_kafka_t* rk, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t* partitions, void* opaque) {
  (void)rk;
  static_cast<KafkaReceiver*>(brokers::KafkaEvents::ownerOf(opaque))->rebalance(err, partitions);
}

std::string header(const rd_kafka_message_t* m, const char* name) {
  rd_kafka_headers_t* headers = nullptr;
  const void* value = nullptr;
  size_t size = 0;
  if (rd_kafka_message_headers(m, &headers) != RD_KAFKA_RESP_ERR_NO_ERROR) return "";
  if (rd_kafka_header_get_last(headers, name, &value, &size) != RD_KAFKA_RESP_ERR_NO_ERROR || value == nullptr) return "";
  return std::string(static_cast<const char*>(value), size);
}

}  // namespace

KafkaReceiver::KafkaReceiver(const CreateSettings& settings, KafkaReceiverConfig config, ConsumerPtr next)
    : settings_(settings),
      config_(std::move(config)),
      next_(std::move(next)),
      events_(settings.logger, *settings.telemetry, this),
      ledger_(config_.max_deliver,
              [this](const std::string& why) { throttle_.log(*settings_.logger, spdlog::level::warn, "ledger", why); }),
      lag_(settings.telemetry->gauge("kafka_consumer_lag",
                                     "records in the assigned partitions not yet accepted (high watermark - next offset)")),
      pauses_(settings.telemetry->counter("kafka_partition_pauses_total",
                                          "partitions paused because the pipeline refused a record")),
      poison_(settings.telemetry->counter("kafka_poison_records_total",
                                          "records skipped because they can never be accepted")),
      assigned_(settings.telemetry->gauge("kafka_assigned_partitions", "partitions this group member reads")),
      commits_(settings.telemetry->counter("kafka_offset_commits_total",
                                           "offset commits sent, each covering every partition's records settled since "
                                           "the last")) {}

KafkaReceiver::~KafkaReceiver() { shutdown(std::chrono::steady_clock::now()); }

Status KafkaReceiver::start(Host& host) {
  (void)host;
  std::vector<std::string> errors;
  brokers::KafkaConfPtr conf = brokers::buildKafkaConf(config_.fixedProperties(), config_.consumer_config, &errors);
  if (!conf) return Status::invalid("consumer_config: " + errors.front());
  rd_kafka_conf_set_rebalance_cb(conf.get(), onRebalance);
  events_.attach(conf.get());
  char err[512];
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf.get(), err, sizeof err);
  if (rk == nullptr) return Status::invalid(std::string("Kafka consumer: ") + err);
  conf.release();
  consumer_.reset(rk);
  rd_kafka_poll_set_consumer(rk);
  PartitionList topics = listOf(config_.topic.c_str(), RD_KAFKA_PARTITION_UA, RD_KAFKA_OFFSET_INVALID);
  if (rd_kafka_resp_err_t e = rd_kafka_subscribe(rk, topics.get()); e != RD_KAFKA_RESP_ERR_NO_ERROR)
    return Status::unavailable(std::string("subscribing to ") + config_.topic + ": " + rd_kafka_err2str(e));
  settings_.logger->info("consuming Kafka topic {} in group {}", config_.topic, config_.group_id);
  thread_ = std::thread([this] { setThreadName("kafka-", settings_.id.str()); run(); });
  return Status::ok();
}

void KafkaReceiver::rebalance(rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t* partitions) {
  rd_kafka_t* rk = consumer_.get();
  const bool cooperative = std::strcmp(rd_kafka_rebalance_protocol(rk), "COOPERATIVE") == 0;
  if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
    settings_.logger->info("assigned {} partitions of {}", partitions->cnt, config_.topic);
    ledger_.assigned(rk, partitions);
    if (cooperative) {
      if (rd_kafka_error_t* e = rd_kafka_incremental_assign(rk, partitions)) rd_kafka_error_destroy(e);
    } else {
      rd_kafka_assign(rk, partitions);
    }
    // A partition paused before it was revoked and now assigned again must not stay paused.
    rd_kafka_resume_partitions(rk, partitions);
    assigned_.add(partitions->cnt);
    return;
  }
  // Revoked: what was settled is committed first, so the next owner starts after it; what was not
  // settled is read again by the next owner.
  commitAccepted(false, partitions);
  ledger_.revoked(partitions);
  for (int i = 0; i < partitions->cnt; ++i) {
    const Partition p{partitions->elems[i].topic, partitions->elems[i].partition};
    paused_.erase(p);
    rewind_.erase(p);
    next_offset_.erase(p);
    uncommitted_.erase(p);
  }
  assigned_.add(-partitions->cnt);
  if (cooperative) {
    if (rd_kafka_error_t* e = rd_kafka_incremental_unassign(rk, partitions)) rd_kafka_error_destroy(e);
  } else {
    rd_kafka_assign(rk, nullptr);
    assigned_.set(0);
  }
}

void KafkaReceiver::run() {
  while (!stopping_) {
    resumeDue();
    updateLag();
    commitAccepted(true);
    rd_kafka_message_t* m = rd_kafka_consumer_poll(consumer_.get(), 100);
    if (m == nullptr) continue;
    std::unique_ptr<rd_kafka_message_t, void (*)(rd_kafka_message_t*)> owned(m, rd_kafka_message_destroy);
    if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR) {
      if (m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF)
        throttle_.log(*settings_.logger, spdlog::level::warn, "consume",
                      std::string("consumer: ") + rd_kafka_message_errstr(m));
      continue;
    }
    const Partition p{rd_kafka_topic_name(m->rkt), m->partition};
    // Fetched before the pause took effect: read again from the rewound offset after the resume.
    if (paused_.count(p)) continue;
    if (auto rw = rewind_.find(p); rw != rewind_.end()) {
      if (m->offset > rw->second) {
        // Fetched before the rewind took effect: never skip past the refused record.
        seekTo(p, rw->second);
        continue;
      }
      rewind_.erase(rw);
    }
    if (handleCounted(p, m) == Outcome::kRefused) {
      pausePartition(m);
      continue;
    }
    next_offset_[p] = m->offset + 1;
    uncommitted_[p] = m->offset + 1;
  }
}

void KafkaReceiver::commitAccepted(bool due_only, const rd_kafka_topic_partition_list_t* revoked) {
  if (uncommitted_.empty()) return;
  const auto now = std::chrono::steady_clock::now();
  if (due_only && now < next_commit_) return;
  PartitionList offsets(rd_kafka_topic_partition_list_new(static_cast<int>(uncommitted_.size())));
  for (const auto& [p, next] : uncommitted_) {
    if (revoked != nullptr && rd_kafka_topic_partition_list_find(revoked, p.first.c_str(), p.second) == nullptr)
      continue;
    rd_kafka_topic_partition_list_add(offsets.get(), p.first.c_str(), p.second)->offset = next;
  }
  if (offsets->cnt == 0) return;
  // Asynchronous in the steady state: a commit lost to a crash means a re-read, never a skip.
  const int async = revoked == nullptr && !stopping_ ? 1 : 0;
  rd_kafka_resp_err_t e = rd_kafka_commit(consumer_.get(), offsets.get(), async);
  if (e != RD_KAFKA_RESP_ERR_NO_ERROR && e != RD_KAFKA_RESP_ERR__NO_OFFSET)
    throttle_.log(*settings_.logger, spdlog::level::warn, "commit",
                  std::string("offset commit: ") + rd_kafka_err2str(e));
  commits_.add(1);
  if (revoked == nullptr) {
    uncommitted_.clear();
    next_commit_ = now + config_.commit_interval.value;
  }
}

KafkaReceiver::Outcome KafkaReceiver::handleCounted(const Partition& p, const rd_kafka_message_t* m) {
  int attempts = 0;
  switch (ledger_.begin(consumer_.get(), p, m->offset, &attempts)) {
    case AttemptLedger::Verdict::kUncounted: return handle(m);
    case AttemptLedger::Verdict::kGiveUp:
      // Not decoded again: whatever stopped the members before would stop this one too.
      settings_.telemetry->record(telemetry::Event::kReceived, {});
      settings_.telemetry->record(telemetry::Event::kRefused, {});
      poison_.add(1);
      throttle_.log(*settings_.logger, spdlog::level::warn, "given_up",
                    "skipping record " + std::to_string(m->offset) + " of partition " + std::to_string(m->partition) +
                        ": " + std::to_string(attempts) + " group members began handling it and never finished (max_deliver " +
                        std::to_string(config_.max_deliver) + ")");
      ledger_.finished(consumer_.get(), p, m->offset);
      return Outcome::kDone;
    case AttemptLedger::Verdict::kCounted: break;
  }
  const Outcome o = handle(m);
  if (o == Outcome::kRefused)
    ledger_.refused(consumer_.get(), p, m->offset);
  else
    ledger_.finished(consumer_.get(), p, m->offset);
  return o;
}

KafkaReceiver::Outcome KafkaReceiver::handle(const rd_kafka_message_t* m) {
  const std::string_view body(static_cast<const char*>(m->payload), m->payload != nullptr ? m->len : 0);
  settings_.telemetry->bytesIn(body.size());
  std::string encoding = header(m, broker_message::kEncodingHeader.data());
  if (encoding.empty()) encoding = config_.encoding;
  broker_message::Decoded d = broker_message::decode(body, encoding, config_.max_message_bytes.bytes);
  if (!d.status.isOk()) {
    settings_.telemetry->record(telemetry::Event::kReceived, {});
    settings_.telemetry->record(telemetry::Event::kRefused, {});
    poison_.add(1);
    throttle_.log(*settings_.logger, spdlog::level::warn, "poison",
                  "skipping record " + std::to_string(m->offset) + " of partition " + std::to_string(m->partition) +
                      ": " + d.status.message());
    return Outcome::kDone;
  }
  if (d.rejected_profiles > 0) {
    settings_.telemetry->recordItems(telemetry::Event::kReceived, static_cast<uint64_t>(d.rejected_profiles), 0);
    settings_.telemetry->recordItems(telemetry::Event::kRefused, static_cast<uint64_t>(d.rejected_profiles), 0);
    throttle_.log(*settings_.logger, spdlog::level::warn, "invalid_profiles",
                  std::to_string(d.rejected_profiles) + " invalid profiles dropped from a record: " + d.rejected_reason);
  }
  if (d.batch.empty()) return Outcome::kDone;
  Status s = next_->consume(Batch(std::move(d.batch)));
  if (s.isOk()) return Outcome::kDone;
  if (!s.retryable()) {
    poison_.add(1);
    throttle_.log(*settings_.logger, spdlog::level::warn, "refused_for_good",
                  "skipping record " + std::to_string(m->offset) + ": pipeline refused it for good: " + s.message());
    return Outcome::kDone;
  }
  return Outcome::kRefused;
}

void KafkaReceiver::seekTo(const Partition& p, int64_t offset) {
  PartitionList l = listOf(p.first.c_str(), p.second, offset);
  if (rd_kafka_error_t* e = rd_kafka_seek_partitions(consumer_.get(), l.get(), 2000)) {
    throttle_.log(*settings_.logger, spdlog::level::warn, "seek", std::string("seek: ") + rd_kafka_error_string(e));
    rd_kafka_error_destroy(e);
  }
}

void KafkaReceiver::pausePartition(const rd_kafka_message_t* m) {
  const char* topic = rd_kafka_topic_name(m->rkt);
  PartitionList l = listOf(topic, m->partition, m->offset);
  rd_kafka_pause_partitions(consumer_.get(), l.get());
  // Rewind to the refused record, so the resume reads it (and what follows) again; until it comes
  // back, later records of the partition are not handled.
  seekTo({topic, m->partition}, m->offset);
  rewind_[{topic, m->partition}] = m->offset;
  paused_[{topic, m->partition}] = std::chrono::steady_clock::now() + config_.pause_duration.value;
  pauses_.add(1);
  throttle_.log(*settings_.logger, spdlog::level::info, "pause",
                "pipeline refused a record: partition " + std::to_string(m->partition) + " paused at offset " +
                    std::to_string(m->offset));
}

void KafkaReceiver::resumeDue() {
  const auto now = std::chrono::steady_clock::now();
  for (auto it = paused_.begin(); it != paused_.end();) {
    if (it->second > now) {
      ++it;
      continue;
    }
    PartitionList l = listOf(it->first.first.c_str(), it->first.second, RD_KAFKA_OFFSET_INVALID);
    rd_kafka_resume_partitions(consumer_.get(), l.get());
    it = paused_.erase(it);
  }
}

void KafkaReceiver::updateLag() {
  const auto now = std::chrono::steady_clock::now();
  if (now < next_lag_update_) return;
  next_lag_update_ = now + std::chrono::seconds(1);
  rd_kafka_topic_partition_list_t* raw = nullptr;
  if (rd_kafka_assignment(consumer_.get(), &raw) != RD_KAFKA_RESP_ERR_NO_ERROR) return;
  PartitionList assigned(raw);
  rd_kafka_position(consumer_.get(), assigned.get());
  int64_t lag = 0;
  for (int i = 0; i < assigned->cnt; ++i) {
    const auto& tp = assigned->elems[i];
    int64_t low = 0, high = 0;
    // Cached from fetch responses: no broker round trip on this thread.
    if (rd_kafka_get_watermark_offsets(consumer_.get(), tp.topic, tp.partition, &low, &high) != RD_KAFKA_RESP_ERR_NO_ERROR ||
        high < 0)
      continue;
    auto it = next_offset_.find({tp.topic, tp.partition});
    const int64_t next = it != next_offset_.end() ? it->second : (tp.offset >= 0 ? tp.offset : low);
    if (high > next) lag += high - next;
  }
  lag_.set(lag);
}

void KafkaReceiver::shutdown(Deadline deadline) {
  (void)deadline;  // one poll (100ms) and one pipeline call bound the wait
  if (stopping_.exchange(true) && !thread_.joinable()) return;
  if (thread_.joinable()) thread_.join();
  if (consumer_) {
    commitAccepted(false);
    rd_kafka_consumer_close(consumer_.get());  // waits for pending commits, leaves the group: partitions move at once
    assigned_.set(0);
  }
  consumer_.reset();
}

}  // namespace proflow::receivers::kafka
