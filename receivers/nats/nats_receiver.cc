#include "receivers/nats/nats_receiver.h"

#include <algorithm>
#include <vector>

#include "core/brokers/broker_message.h"
#include "core/runtime/thread_name.h"

namespace proflow::receivers::nats {
namespace {

constexpr auto kResubscribeWait = std::chrono::seconds(1);

int64_t millis(std::chrono::nanoseconds d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); }

std::string header(natsMsg* msg, std::string_view key) {
  const char* v = nullptr;
  if (natsMsgHeader_Get(msg, std::string(key).c_str(), &v) == NATS_OK && v != nullptr) return v;
  return "";
}

struct Fetched {
  natsMsg* msg;
  uint64_t delivered;  // 1 on the first delivery
};

// The messages of a fetch, first deliveries first: a redelivered message may be what took a
// receiver down, and the others are then settled before it is touched. Sets `pending` from the
// last message's metadata.
std::vector<Fetched> firstDeliveriesFirst(const natsMsgList& list, telemetry::Gauge& pending) {
  std::vector<Fetched> out;
  out.reserve(static_cast<size_t>(list.Count));
  for (int i = 0; i < list.Count; ++i) {
    jsMsgMetaData* meta = nullptr;
    uint64_t delivered = 1;
    if (natsMsg_GetMetaData(&meta, list.Msgs[i]) == NATS_OK) {
      delivered = meta->NumDelivered;
      pending.set(static_cast<int64_t>(meta->NumPending));
      jsMsgMetaData_Destroy(meta);
    }
    out.push_back({list.Msgs[i], delivered});
  }
  std::stable_partition(out.begin(), out.end(), [](const Fetched& f) { return f.delivered <= 1; });
  return out;
}

}  // namespace

NatsReceiver::NatsReceiver(const CreateSettings& settings, NatsReceiverConfig config, ConsumerPtr next)
    : settings_(settings),
      config_(std::move(config)),
      next_(std::move(next)),
      redelivered_(settings.telemetry->counter("nats_redelivered_messages_total",
                                               "messages received again (not acknowledged in time, or refused before)")),
      naks_(settings.telemetry->counter("nats_nak_messages_total", "messages handed back because the pipeline refused them")),
      dead_lettered_(settings.telemetry->counter("nats_dead_letter_messages_total",
                                                 "poison messages sent to the dead letter subject (or terminated)")),
      pending_(settings.telemetry->gauge("nats_pending_messages", "messages in the stream not yet delivered to the consumer")) {}

NatsReceiver::~NatsReceiver() { shutdown(std::chrono::steady_clock::now()); }

Status NatsReceiver::start(Host& host) {
  (void)host;
  if (Status s = brokers::connectNats(config_.connection, "proflow " + settings_.id.str(), &conn_); !s.isOk()) return s;
  jsOptions o;
  jsOptions_Init(&o);
  if (::natsStatus s = natsConnection_JetStream(&js_, conn_.get(), &o); s != NATS_OK)
    return brokers::natsStatus(s, "JetStream context");
  settings_.logger->info("consuming stream {} subject {} as durable consumer {}", config_.stream, config_.subject,
                         config_.consumer);
  thread_ = std::thread([this] { setThreadName("nats-", settings_.id.str()); run(); });
  return Status::ok();
}

Status NatsReceiver::subscribe() {
  jsSubOptions so;
  jsSubOptions_Init(&so);
  so.Stream = config_.stream.c_str();
  so.Config.Durable = config_.consumer.c_str();
  so.Config.AckPolicy = js_AckExplicit;
  so.Config.AckWait = config_.ack_wait.value.count();
  so.Config.MaxDeliver = -1;  // the receiver dead-letters by max_deliver itself, so nothing is stranded
  so.Config.MaxAckPending = config_.max_ack_pending;
  so.Config.FilterSubject = config_.subject.c_str();
  jsErrCode jerr = static_cast<jsErrCode>(0);
  ::natsStatus s = js_PullSubscribe(&sub_, js_, config_.subject.c_str(), config_.consumer.c_str(), nullptr, &so, &jerr);
  if (s != NATS_OK) {
    sub_ = nullptr;
    std::string why = nats_GetLastError(nullptr) ? nats_GetLastError(nullptr) : natsStatus_GetText(s);
    return Status::unavailable("subscribing to stream " + config_.stream + ": " + why);
  }
  return Status::ok();
}

bool NatsReceiver::pause(std::chrono::nanoseconds d) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, d, [&] { return stopping_.load(); });
  return !stopping_;
}

void NatsReceiver::run() {
  while (!stopping_) {
    if (sub_ == nullptr) {
      if (Status s = subscribe(); !s.isOk()) {
        throttle_.log(*settings_.logger, spdlog::level::warn, "subscribe", s.message() + " (retrying)");
        pause(kResubscribeWait);
        continue;
      }
    }
    natsMsgList list{};
    jsErrCode jerr = static_cast<jsErrCode>(0);
    // One message per fetch after a redelivery (and at start, not knowing): a message that takes
    // its receiver down then takes down no messages fetched with it, whose delivery counts would
    // rise too. Whole batches again once a fetch brings a first delivery.
    const int wanted = one_at_a_time_ ? 1 : config_.batch_size;
    ::natsStatus s = natsSubscription_Fetch(&list, sub_, wanted, millis(config_.fetch_timeout.value), &jerr);
    if (s == NATS_TIMEOUT) {
      pending_.set(0);  // nothing left for this consumer
      continue;
    }
    if (s != NATS_OK) {
      throttle_.log(*settings_.logger, spdlog::level::warn, "fetch",
                    std::string("fetch failed: ") + natsStatus_GetText(s) + " (retrying)");
      if (s == NATS_NOT_FOUND || s == NATS_INVALID_SUBSCRIPTION || jerr == JSConsumerNotFoundErr) {
        natsSubscription_Destroy(sub_);  // consumer or stream deleted: create it again
        sub_ = nullptr;
      }
      pause(kResubscribeWait);
      continue;
    }
    bool refused = false, redelivery = false;
    for (const Fetched& f : firstDeliveriesFirst(list, pending_)) {
      redelivery |= f.delivered > 1;
      if (refused || stopping_) {
        // Handed back at once on shutdown (another replica takes it), after the delay on refusal.
        natsMsg_NakWithDelay(f.msg, stopping_ && !refused ? 0 : millis(config_.nak_delay.value), nullptr);
        naks_.add(1);
        continue;
      }
      refused = !handle(f.msg, f.delivered);
    }
    natsMsgList_Destroy(&list);
    one_at_a_time_ = redelivery || refused;  // what a refusal handed back comes back redelivered
    if (refused) pause(config_.nak_delay.value);
  }
}

bool NatsReceiver::handle(natsMsg* msg, uint64_t delivered) {
  if (delivered > 1) redelivered_.add(1);
  if (config_.max_deliver > 0 && delivered > static_cast<uint64_t>(config_.max_deliver)) {
    // Handed out max_deliver times and never settled: a receiver died or stalled on it (or it was
    // handed back unread each time). It is not decoded again, so it cannot take this one down too.
    settings_.telemetry->record(telemetry::Event::kReceived, {});
    settings_.telemetry->record(telemetry::Event::kRefused, {});
    deadLetter(msg, "delivered " + std::to_string(delivered) + " times without being settled (max_deliver " +
                        std::to_string(config_.max_deliver) + "); not decoded again");
    return true;
  }
  const int len = natsMsg_GetDataLength(msg);
  const std::string_view body(natsMsg_GetData(msg), static_cast<size_t>(len > 0 ? len : 0));
  settings_.telemetry->bytesIn(body.size());
  std::string encoding = header(msg, broker_message::kEncodingHeader);
  if (encoding.empty()) encoding = config_.encoding;
  broker_message::Decoded d = broker_message::decode(body, encoding, config_.max_message_bytes.bytes);
  if (!d.status.isOk()) {
    settings_.telemetry->record(telemetry::Event::kReceived, {});
    settings_.telemetry->record(telemetry::Event::kRefused, {});
    deadLetter(msg, d.status.message());
    return true;
  }
  if (d.rejected_profiles > 0) {
    settings_.telemetry->recordItems(telemetry::Event::kReceived, static_cast<uint64_t>(d.rejected_profiles), 0);
    settings_.telemetry->recordItems(telemetry::Event::kRefused, static_cast<uint64_t>(d.rejected_profiles), 0);
    throttle_.log(*settings_.logger, spdlog::level::warn, "invalid_profiles",
                  std::to_string(d.rejected_profiles) + " invalid profiles dropped from a message: " + d.rejected_reason);
  }
  if (d.batch.empty()) {
    natsMsg_Ack(msg, nullptr);
    return true;
  }
  Status s = next_->consume(Batch(std::move(d.batch)));
  if (s.isOk()) {
    natsMsg_Ack(msg, nullptr);  // a lost ack only means a redelivery (at least once)
    return true;
  }
  if (!s.retryable()) {
    deadLetter(msg, "pipeline refused it for good: " + s.message());
    return true;
  }
  if (config_.max_deliver > 0 && delivered >= static_cast<uint64_t>(config_.max_deliver)) {
    deadLetter(msg, "still refused after " + std::to_string(delivered) + " deliveries: " + s.message());
    return true;
  }
  natsMsg_NakWithDelay(msg, millis(config_.nak_delay.value), nullptr);
  naks_.add(1);
  return false;
}

void NatsReceiver::deadLetter(natsMsg* msg, const std::string& reason) {
  dead_lettered_.add(1);
  if (!config_.dead_letter_subject.empty()) {
    natsMsg* copy = nullptr;
    const int len = natsMsg_GetDataLength(msg);
    ::natsStatus s = natsMsg_Create(&copy, config_.dead_letter_subject.c_str(), nullptr, natsMsg_GetData(msg), len);
    if (s == NATS_OK) {
      natsMsgHeader_Set(copy, "proflow-dead-letter-reason", reason.substr(0, 512).c_str());
      natsMsgHeader_Set(copy, "proflow-original-subject", natsMsg_GetSubject(msg));
      // Stored with an acknowledgement when a stream captures the subject; plain publish otherwise.
      jsPubAck* ack = nullptr;
      jsErrCode jerr = static_cast<jsErrCode>(0);
      s = js_PublishMsg(&ack, js_, copy, nullptr, &jerr);
      jsPubAck_Destroy(ack);
      if (s == NATS_NO_RESPONDERS) s = natsConnection_PublishMsg(conn_.get(), copy);
      natsMsg_Destroy(copy);
    }
    if (s != NATS_OK) {
      // Not dead-lettered: hand it back rather than lose it.
      throttle_.log(*settings_.logger, spdlog::level::warn, "dead_letter",
                    std::string("dead letter publish failed: ") + natsStatus_GetText(s));
      natsMsg_NakWithDelay(msg, millis(config_.nak_delay.value), nullptr);
      return;
    }
  }
  throttle_.log(*settings_.logger, spdlog::level::warn, "poison",
                "message dead-lettered" +
                    (config_.dead_letter_subject.empty() ? std::string(" (no dead_letter_subject: dropped)")
                                                         : " to " + config_.dead_letter_subject) +
                    ": " + reason);
  natsMsg_Term(msg, nullptr);
}

void NatsReceiver::shutdown(Deadline deadline) {
  (void)deadline;  // one fetch (fetch_timeout) and one pipeline call bound the wait
  {
    std::lock_guard lock(mu_);
    if (stopping_.exchange(true) && !thread_.joinable()) return;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (sub_ != nullptr) natsSubscription_Destroy(sub_);  // the durable consumer stays on the server
  sub_ = nullptr;
  if (js_ != nullptr) jsCtx_Destroy(js_);
  js_ = nullptr;
  conn_.reset();
}

}  // namespace proflow::receivers::nats
