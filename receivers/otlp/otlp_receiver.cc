#include "receivers/otlp/otlp_receiver.h"

#include "receivers/otlp/grpc_transport.h"
#include "receivers/otlp/http_transport.h"


namespace proflow::receivers::otlp {

OtlpReceiver::OtlpReceiver(const CreateSettings& settings, OtlpReceiverConfig config, ConsumerPtr next)
    : settings_(settings), config_(std::move(config)), next_(std::move(next)) {}

OtlpReceiver::~OtlpReceiver() { shutdown(std::chrono::steady_clock::now()); }

Status OtlpReceiver::start(Host& host) {
  // One budget for both protocols: memory is the receiver's, whichever way requests arrive.
  auto budget = config_.server_limits.makeBudget();
  if (config_.protocols.grpc) {
    grpc_ = std::make_unique<GrpcTransport>(settings_, *config_.protocols.grpc, next_, config_.server_limits, budget);
    if (Status s = grpc_->start(host); !s.isOk()) return s;
  }
  if (config_.protocols.http) {
    http_ = std::make_unique<HttpTransport>(settings_, *config_.protocols.http, next_, config_.server_limits, budget);
    if (Status s = http_->start(host); !s.isOk()) {
      shutdown(std::chrono::steady_clock::now());
      return s;
    }
  }
  return Status::ok();
}

void OtlpReceiver::shutdown(Deadline deadline) {
  if (http_) http_->shutdown(deadline);
  if (grpc_) grpc_->shutdown(deadline);
}

int OtlpReceiver::grpcPort() const { return grpc_ ? grpc_->port() : 0; }
int OtlpReceiver::httpPort() const { return http_ ? http_->port() : 0; }

}  // namespace proflow::receivers::otlp
