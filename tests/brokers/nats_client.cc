#include "tests/brokers/nats_client.h"

namespace proflow::testing {

NatsClient::NatsClient(const std::string& url) {
  if (natsConnection_ConnectTo(&nc_, url.c_str()) != NATS_OK) return;
  if (natsConnection_JetStream(&js_, nc_, nullptr) != NATS_OK) js_ = nullptr;
}

NatsClient::~NatsClient() {
  if (js_ != nullptr) jsCtx_Destroy(js_);
  if (nc_ != nullptr) natsConnection_Destroy(nc_);
}

bool NatsClient::addStream(const std::string& name, const std::string& subject) {
  const char* subjects[] = {subject.c_str()};
  jsStreamConfig cfg;
  jsStreamConfig_Init(&cfg);
  cfg.Name = name.c_str();
  cfg.Subjects = subjects;
  cfg.SubjectsLen = 1;
  jsStreamInfo* si = nullptr;
  jsErrCode jerr = static_cast<jsErrCode>(0);
  natsStatus s = js_AddStream(&si, js_, &cfg, nullptr, &jerr);
  jsStreamInfo_Destroy(si);
  return s == NATS_OK;
}

bool NatsClient::publish(const std::string& subject, const std::string& data,
                         const std::vector<std::pair<std::string, std::string>>& headers) {
  natsMsg* m = nullptr;
  if (natsMsg_Create(&m, subject.c_str(), nullptr, data.data(), static_cast<int>(data.size())) != NATS_OK) return false;
  for (const auto& [k, v] : headers) natsMsgHeader_Set(m, k.c_str(), v.c_str());
  jsPubAck* ack = nullptr;
  jsErrCode jerr = static_cast<jsErrCode>(0);
  natsStatus s = js_PublishMsg(&ack, js_, m, nullptr, &jerr);
  jsPubAck_Destroy(ack);
  natsMsg_Destroy(m);
  return s == NATS_OK;
}

uint64_t NatsClient::streamMessages(const std::string& stream) {
  jsStreamInfo* si = nullptr;
  jsErrCode jerr = static_cast<jsErrCode>(0);
  if (js_GetStreamInfo(&si, js_, stream.c_str(), nullptr, &jerr) != NATS_OK) return 0;
  const uint64_t n = si->State.Msgs;
  jsStreamInfo_Destroy(si);
  return n;
}

int NatsClient::deliverUnsettled(const std::string& stream, const std::string& durable, const std::string& subject,
                                 int times) {
  jsSubOptions so;
  jsSubOptions_Init(&so);
  so.Stream = stream.c_str();
  so.Config.Durable = durable.c_str();
  so.Config.AckPolicy = js_AckExplicit;
  so.Config.AckWait = 30'000'000'000;
  so.Config.MaxDeliver = -1;
  so.Config.MaxAckPending = 1000;
  so.Config.FilterSubject = subject.c_str();
  natsSubscription* sub = nullptr;
  jsErrCode jerr = static_cast<jsErrCode>(0);
  if (js_PullSubscribe(&sub, js_, subject.c_str(), durable.c_str(), nullptr, &so, &jerr) != NATS_OK) return 0;
  int delivered = 0;
  for (; delivered < times; ++delivered) {
    natsMsgList list{};
    if (natsSubscription_Fetch(&list, sub, 1, 2000, &jerr) != NATS_OK) break;
    for (int i = 0; i < list.Count; ++i) natsMsg_Nak(list.Msgs[i], nullptr);  // redelivered at once
    natsMsgList_Destroy(&list);
  }
  natsSubscription_Destroy(sub);  // the durable consumer stays
  return delivered;
}

bool NatsClient::get(const std::string& stream, uint64_t seq, const std::vector<std::string>& header_names,
                     Message* out) {
  natsMsg* m = nullptr;
  jsErrCode jerr = static_cast<jsErrCode>(0);
  if (js_GetMsg(&m, js_, stream.c_str(), seq, nullptr, &jerr) != NATS_OK) return false;
  out->data.assign(natsMsg_GetData(m), static_cast<size_t>(natsMsg_GetDataLength(m)));
  for (const auto& h : header_names) {
    const char* v = nullptr;
    if (natsMsgHeader_Get(m, h.c_str(), &v) == NATS_OK && v != nullptr) out->headers.emplace_back(h, v);
  }
  natsMsg_Destroy(m);
  return true;
}

}  // namespace proflow::testing
