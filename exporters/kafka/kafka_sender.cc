#include "exporters/kafka/kafka_sender.h"

#include <condition_variable>
#include <memory>
#include <mutex>

#include "core/runtime/thread_name.h"

namespace proflow::exporters::kafka {
namespace {

// Delivery state of one push: its records report here from the poller thread.
struct Delivery {
  std::mutex mu;
  std::condition_variable cv;
  int outstanding = 0;
  rd_kafka_resp_err_t first_error = RD_KAFKA_RESP_ERR_NO_ERROR;
};

void onDelivery(rd_kafka_t*, const rd_kafka_message_t* m, void*) {
  // Each record holds its own reference, so a push that gave up waiting leaves nothing dangling.
  auto* ref = static_cast<std::shared_ptr<Delivery>*>(m->_private);
  {
    std::lock_guard lock((*ref)->mu);
    if (m->err != RD_KAFKA_RESP_ERR_NO_ERROR && (*ref)->first_error == RD_KAFKA_RESP_ERR_NO_ERROR)
      (*ref)->first_error = m->err;
    --(*ref)->outstanding;
  }
  (*ref)->cv.notify_all();
  delete ref;
}

Status deliveryStatus(rd_kafka_resp_err_t err, const std::string& topic) {
  const std::string msg = "producing to " + topic + ": " + rd_kafka_err2str(err);
  switch (err) {
    case RD_KAFKA_RESP_ERR_NO_ERROR: return Status::ok();
    case RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE: return Status::tooLarge(msg);
    case RD_KAFKA_RESP_ERR__QUEUE_FULL: return Status::exhausted(msg);
    case RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED:
    case RD_KAFKA_RESP_ERR_CLUSTER_AUTHORIZATION_FAILED: return Status(StatusCode::kPermissionDenied, msg);
    default: return Status::unavailable(msg);  // timeouts, leader changes, brokers down: try again
  }
}

}  // namespace

Status encodeRecords(const KafkaExporterConfig& config, const flat::Batch& batch, std::vector<KafkaRecord>* out) {
  broker_message::KeyKind kind = broker_message::KeyKind::kNone;
  broker_message::parseKeyKind(config.partition_key, &kind);
  for (auto& part : broker_message::split(batch, config.tenant_attribute, kind)) {
    if (part.batch.empty()) continue;
    KafkaRecord r;
    if (Status s = broker_message::encode(part.batch, config.encoding, &r.value); !s.isOk()) return s;
    if (r.value.size() > config.max_message_bytes.bytes)
      return Status::tooLarge("record of " + std::to_string(r.value.size()) + " bytes exceeds max_message_bytes " +
                              config.max_message_bytes.str());
    r.key = std::move(part.key);
    r.headers.emplace_back(broker_message::kEncodingHeader, config.encoding);
    if (!part.tenant.empty()) r.headers.emplace_back(broker_message::kTenantHeader, part.tenant);
    if (!part.service.empty()) r.headers.emplace_back(broker_message::kServiceHeader, part.service);
    out->push_back(std::move(r));
  }
  return Status::ok();
}

KafkaSender::KafkaSender(const CreateSettings& settings, KafkaExporterConfig config)
    : settings_(settings), config_(std::move(config)), events_(settings.logger, *settings.telemetry, this) {}

KafkaSender::~KafkaSender() { shutdown(); }

Status KafkaSender::start(Host& host) {
  (void)host;
  std::vector<std::string> errors;
  brokers::KafkaConfPtr conf = brokers::buildKafkaConf(config_.fixedProperties(), config_.producer_config, &errors);
  if (!conf) return Status::invalid("producer_config: " + errors.front());
  rd_kafka_conf_set_dr_msg_cb(conf.get(), onDelivery);
  events_.attach(conf.get());
  char err[512];
  rd_kafka_t* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), err, sizeof err);
  if (rk == nullptr) return Status::invalid(std::string("Kafka producer: ") + err);
  conf.release();  // owned by the producer now
  producer_.reset(rk);
  poller_ = std::thread([this] {
    setThreadName("kafka-poll");
    while (!stopping_) rd_kafka_poll(producer_.get(), 100);
  });
  settings_.logger->info("producing {} to Kafka topic {} (key: {}, compression: {})", config_.encoding, config_.topic,
                         config_.partition_key, config_.compression);
  return Status::ok();
}

Status KafkaSender::push(const Batch& batch, Deadline deadline) {
  std::vector<KafkaRecord> records;
  if (Status s = encodeRecords(config_, batch.data(), &records); !s.isOk()) return s;
  auto delivery = std::make_shared<Delivery>();
  for (auto& r : records) {
    rd_kafka_headers_t* headers = rd_kafka_headers_new(r.headers.size());
    for (const auto& [k, v] : r.headers)
      rd_kafka_header_add(headers, k.data(), static_cast<ssize_t>(k.size()), v.data(), static_cast<ssize_t>(v.size()));
    auto* ref = new std::shared_ptr<Delivery>(delivery);
    {
      std::lock_guard lock(delivery->mu);
      ++delivery->outstanding;
    }
    rd_kafka_resp_err_t e = rd_kafka_producev(
        producer_.get(), RD_KAFKA_V_TOPIC(config_.topic.c_str()), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
        RD_KAFKA_V_VALUE(r.value.data(), r.value.size()),
        RD_KAFKA_V_KEY(r.key.empty() ? nullptr : r.key.data(), r.key.size()), RD_KAFKA_V_HEADERS(headers),
        RD_KAFKA_V_OPAQUE(ref), RD_KAFKA_V_END);
    if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
      rd_kafka_headers_destroy(headers);  // not taken over on failure
      delete ref;
      std::lock_guard lock(delivery->mu);
      --delivery->outstanding;
      if (delivery->first_error == RD_KAFKA_RESP_ERR_NO_ERROR) delivery->first_error = e;
      break;
    }
    settings_.telemetry->bytesOut(r.value.size());
  }
  std::unique_lock lock(delivery->mu);
  const bool settled = delivery->cv.wait_until(lock, deadline, [&] { return delivery->outstanding == 0; });
  Status result = settled ? deliveryStatus(delivery->first_error, config_.topic)
                          : Status(StatusCode::kDeadlineExceeded, std::to_string(delivery->outstanding) +
                                                                      " records not acknowledged in time by " +
                                                                      config_.topic);
  // A record that timed out says nothing of why: the brokers' last complaint usually does.
  if (!result.isOk())
    if (const std::string why = events_.lastError(); !why.empty())
      result = Status(result.code(), result.message() + "; last Kafka client error: " + why);
  return result;
}

void KafkaSender::shutdown() {
  if (!producer_) return;
  stopping_ = true;
  if (poller_.joinable()) poller_.join();
  rd_kafka_flush(producer_.get(), 2000);  // delivery reports of records a timed-out push left behind
  // What is still queued (brokers unreachable) is dropped: its push already answered "not
  // acknowledged in time". Serving the purge's delivery reports frees the records' references.
  rd_kafka_purge(producer_.get(), RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
  rd_kafka_flush(producer_.get(), 1000);
  producer_.reset();
}

}  // namespace proflow::exporters::kafka
