// One JetStream publish per message of a batch; a push succeeds only once the stream acknowledged
// every message (stored). The exporter helper queues and retries around it.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "core/brokers/broker_message.h"
#include "core/brokers/nats_connection.h"
#include "core/exporterhelper/sender.h"
#include "core/component/factory.h"
#include "exporters/nats/config.h"

namespace proflow::exporters::nats {

// A message ready to publish: body and headers (pure, for tests).
struct NatsMessage {
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};
Status encodeMessages(const NatsExporterConfig& config, const flat::Batch& batch, std::vector<NatsMessage>* out);

class NatsSender final : public exporterhelper::Sender {
 public:
  NatsSender(const CreateSettings& settings, NatsExporterConfig config);
  ~NatsSender() override;
  Status start(Host& host) override;
  Status push(const Batch& batch, Deadline deadline) override;
  void shutdown() override;

 private:
  // Creates the stream once (create_stream); retried by later pushes while the server is away.
  Status ensureStream();
  Status publish(const NatsMessage& m, Deadline deadline);

  CreateSettings settings_;
  NatsExporterConfig config_;
  brokers::NatsConnectionPtr conn_;
  jsCtx* js_ = nullptr;
  std::mutex stream_mu_;
  bool stream_ready_ = false;
};

}  // namespace proflow::exporters::nats
