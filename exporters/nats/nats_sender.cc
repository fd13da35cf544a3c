#include "exporters/nats/nats_sender.h"

#include <algorithm>

namespace proflow::exporters::nats {
namespace {

int64_t msLeft(Deadline deadline) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
}

Status jsError(::natsStatus s, jsErrCode jerr, const std::string& what) {
  if (jerr == JSStreamStoreFailedErr)  // stream full with discard: new (max_bytes); may drain later
    return Status::exhausted(what + ": stream refused the message (full)");
  if (jerr == JSStreamMessageExceedsMaximumErr) return Status::tooLarge(what + ": message exceeds the stream's limit");
  if (jerr != 0) return Status::unavailable(what + ": JetStream error " + std::to_string(static_cast<int>(jerr)));
  return brokers::natsStatus(s, what);
}

// A publish JetStream did not store because no stream (or another one than `stream`) takes the
// subject. The NATS client reports the first as "JetStream not enabled" (10076: nothing answered
// the subject), which reads as a server problem; say what is missing and how to fix it. Retryable:
// the stream may be created while the data waits.
Status publishError(::natsStatus s, jsErrCode jerr, const NatsExporterConfig& c) {
  const std::string what = "publishing to subject '" + c.subject + "'";
  if (jerr == JSNotEnabledErr || s == NATS_NO_RESPONDERS)
    return Status::unavailable(what + ": no JetStream stream captures this subject (or JetStream is not enabled on "
                               "the server); set create_stream: true, or create stream '" + c.stream +
                               "' with subject '" + c.subject + "'");
  if (jerr == JSStreamNotMatchErr || jerr == JSStreamNotFoundErr)
    return Status::unavailable(what + ": the subject is captured by another stream than '" + c.stream +
                               "'; set `stream` to that stream, or change `subject` to one of '" + c.stream + "'");
  return jsError(s, jerr, what);
}

}  // namespace

Status encodeMessages(const NatsExporterConfig& config, const flat::Batch& batch, std::vector<NatsMessage>* out) {
  for (auto& part : broker_message::split(batch, config.tenant_attribute, broker_message::KeyKind::kNone)) {
    if (part.batch.empty()) continue;
    NatsMessage m;
    if (Status s = broker_message::encode(part.batch, config.encoding, &m.body); !s.isOk()) return s;
    if (m.body.size() > config.max_message_bytes.bytes)
      return Status::tooLarge("message of " + std::to_string(m.body.size()) + " bytes exceeds max_message_bytes " +
                              config.max_message_bytes.str());
    m.headers.emplace_back(broker_message::kEncodingHeader, config.encoding);
    if (!part.tenant.empty()) m.headers.emplace_back(broker_message::kTenantHeader, part.tenant);
    if (!part.service.empty()) m.headers.emplace_back(broker_message::kServiceHeader, part.service);
    out->push_back(std::move(m));
  }
  return Status::ok();
}

NatsSender::NatsSender(const CreateSettings& settings, NatsExporterConfig config)
    : settings_(settings), config_(std::move(config)) {}

NatsSender::~NatsSender() { shutdown(); }

Status NatsSender::start(Host& host) {
  (void)host;
  if (Status s = brokers::connectNats(config_.connection, "proflow " + settings_.id.str(), &conn_); !s.isOk()) return s;
  jsOptions o;
  jsOptions_Init(&o);
  if (::natsStatus s = natsConnection_JetStream(&js_, conn_.get(), &o); s != NATS_OK)
    return brokers::natsStatus(s, "JetStream context");
  if (Status s = ensureStream(); !s.isOk())
    settings_.logger->warn("stream {} not ready yet ({}); publishes will retry", config_.stream, s.message());
  settings_.logger->info("publishing {} to NATS JetStream stream {} subject {}", config_.encoding, config_.stream,
                         config_.subject);
  return Status::ok();
}

Status NatsSender::ensureStream() {
  std::lock_guard lock(stream_mu_);
  if (stream_ready_ || !config_.create_stream) return Status::ok();
  std::vector<std::string> subjects = config_.stream_subjects;
  if (subjects.empty()) subjects.push_back(config_.subject);
  std::vector<const char*> subject_ptrs;
  for (const auto& s : subjects) subject_ptrs.push_back(s.c_str());
  jsStreamConfig cfg;
  jsStreamConfig_Init(&cfg);
  cfg.Name = config_.stream.c_str();
  cfg.Subjects = subject_ptrs.data();
  cfg.SubjectsLen = static_cast<int>(subject_ptrs.size());
  cfg.Storage = config_.storage == "memory" ? js_MemoryStorage : js_FileStorage;
  cfg.Replicas = config_.replicas;
  if (config_.max_bytes.bytes > 0) {
    cfg.MaxBytes = static_cast<int64_t>(config_.max_bytes.bytes);
    cfg.Discard = js_DiscardNew;  // refuse (retryable upstream) instead of dropping stored data
  }
  cfg.MaxAge = config_.max_age.value.count();
  jsStreamInfo* info = nullptr;
  jsErrCode jerr = static_cast<jsErrCode>(0);
  ::natsStatus s = js_AddStream(&info, js_, &cfg, nullptr, &jerr);
  jsStreamInfo_Destroy(info);
  if (s != NATS_OK && jerr != JSStreamNameExistErr) return jsError(s, jerr, "creating stream " + config_.stream);
  stream_ready_ = true;
  return Status::ok();
}

Status NatsSender::publish(const NatsMessage& m, Deadline deadline) {
  natsMsg* raw = nullptr;
  ::natsStatus s = natsMsg_Create(&raw, config_.subject.c_str(), nullptr, m.body.data(), static_cast<int>(m.body.size()));
  if (s != NATS_OK) return brokers::natsStatus(s, "message");
  std::unique_ptr<natsMsg, void (*)(natsMsg*)> msg(raw, natsMsg_Destroy);
  for (const auto& [k, v] : m.headers)
    if (s = natsMsgHeader_Set(msg.get(), k.c_str(), v.c_str()); s != NATS_OK) return brokers::natsStatus(s, "header");
  jsPubOptions po;
  jsPubOptions_Init(&po);
  po.ExpectStream = config_.stream.c_str();  // a subject captured by another stream is an error, not a silent success
  po.MaxWait = std::max<int64_t>(1, msLeft(deadline));
  jsPubAck* ack = nullptr;
  jsErrCode jerr = static_cast<jsErrCode>(0);
  s = js_PublishMsg(&ack, js_, msg.get(), &po, &jerr);
  jsPubAck_Destroy(ack);
  if (s != NATS_OK) return publishError(s, jerr, config_);
  return Status::ok();
}

Status NatsSender::push(const Batch& batch, Deadline deadline) {
  if (msLeft(deadline) <= 0) return Status(StatusCode::kDeadlineExceeded, "no time left for the attempt");
  if (Status s = ensureStream(); !s.isOk()) return s;
  std::vector<NatsMessage> messages;
  if (Status s = encodeMessages(config_, batch.data(), &messages); !s.isOk()) return s;
  // At least once: a retry after a partial failure publishes the earlier messages again.
  for (const auto& m : messages) {
    if (Status s = publish(m, deadline); !s.isOk()) return s;
    settings_.telemetry->bytesOut(m.body.size());
  }
  return Status::ok();
}

void NatsSender::shutdown() {
  if (js_ != nullptr) jsCtx_Destroy(js_);
  js_ = nullptr;
  conn_.reset();
}

}  // namespace proflow::exporters::nats
