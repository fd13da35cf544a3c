// A plain cnats JetStream client for tests: what a test publishes around the components under test,
// and what it reads back from streams.
#pragma once

#include <nats/nats.h>

#include <string>
#include <utility>
#include <vector>

namespace proflow::testing {

class NatsClient {
 public:
  explicit NatsClient(const std::string& url);
  ~NatsClient();
  bool ok() const { return js_ != nullptr; }

  bool addStream(const std::string& name, const std::string& subject);
  bool publish(const std::string& subject, const std::string& data,
               const std::vector<std::pair<std::string, std::string>>& headers = {});
  // Messages stored in `stream` (0 when it does not exist).
  uint64_t streamMessages(const std::string& stream);
  struct Message {
    std::string data;
    std::vector<std::pair<std::string, std::string>> headers;
  };
  // Takes the next message of durable pull consumer `durable` (created with the `nats` receiver's
  // settings when missing) and hands it back unsettled, `times` times: what replicas that died
  // while handling it leave behind. The number of deliveries made.
  int deliverUnsettled(const std::string& stream, const std::string& durable, const std::string& subject, int times);
  // The message at sequence `seq` of `stream`, with the headers named in `header_names`.
  bool get(const std::string& stream, uint64_t seq, const std::vector<std::string>& header_names, Message* out);

 private:
  natsConnection* nc_ = nullptr;
  jsCtx* js_ = nullptr;
};

}  // namespace proflow::testing
