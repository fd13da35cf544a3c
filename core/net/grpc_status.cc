#include "core/net/grpc_status.h"

#include "google/rpc/status.pb.h"

namespace proflow {
namespace {

constexpr const char* kRetryInfoType = "type.googleapis.com/google.rpc.RetryInfo";

std::string statusDetails(grpc::StatusCode code, const std::string& message, std::chrono::milliseconds retry_after) {
  google::rpc::Status st;
  st.set_code(static_cast<int>(code));
  st.set_message(message);
  google::rpc::RetryInfo info;
  info.mutable_retry_delay()->set_seconds(retry_after.count() / 1000);
  info.mutable_retry_delay()->set_nanos(static_cast<int32_t>((retry_after.count() % 1000) * 1000000));
  auto* any = st.add_details();
  any->set_type_url(kRetryInfoType);
  any->set_value(info.SerializeAsString());
  return st.SerializeAsString();
}

}  // namespace

grpc::Status toGrpcStatus(const Status& s) {
  if (s.isOk()) return grpc::Status::OK;
  if (s.code() == StatusCode::kPayloadTooLarge) return {grpc::StatusCode::RESOURCE_EXHAUSTED, s.message()};
  auto code = static_cast<grpc::StatusCode>(static_cast<int>(s.code()));
  if (s.code() == StatusCode::kResourceExhausted || s.code() == StatusCode::kUnavailable) {
    auto delay = s.retryAfter().count() > 0 ? s.retryAfter() : std::chrono::milliseconds(1000);
    return {code, s.message(), statusDetails(code, s.message(), delay)};
  }
  return {code, s.message()};
}

Status fromGrpcStatus(const grpc::Status& s) {
  if (s.ok()) return Status::ok();
  std::chrono::milliseconds retry_after{0};
  bool has_retry_info = false;
  if (!s.error_details().empty()) {
    google::rpc::Status st;
    if (st.ParseFromString(s.error_details()))
      for (const auto& any : st.details())
        if (any.type_url() == kRetryInfoType) {
          google::rpc::RetryInfo info;
          if (info.ParseFromString(any.value())) {
            has_retry_info = true;
            retry_after = std::chrono::milliseconds(info.retry_delay().seconds() * 1000 + info.retry_delay().nanos() / 1000000);
          }
        }
  }
  const std::string msg = s.error_message();
  switch (s.error_code()) {
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      if (!has_retry_info) return Status::tooLarge(msg.empty() ? "RESOURCE_EXHAUSTED without RetryInfo" : msg);
      return Status::exhausted(msg).withRetryAfter(retry_after);
    case grpc::StatusCode::CANCELLED: return Status(StatusCode::kCancelled, msg).withRetryAfter(retry_after);
    case grpc::StatusCode::DEADLINE_EXCEEDED: return Status(StatusCode::kDeadlineExceeded, msg).withRetryAfter(retry_after);
    case grpc::StatusCode::ABORTED: return Status(StatusCode::kAborted, msg).withRetryAfter(retry_after);
    case grpc::StatusCode::OUT_OF_RANGE: return Status(StatusCode::kOutOfRange, msg).withRetryAfter(retry_after);
    case grpc::StatusCode::UNAVAILABLE: return Status(StatusCode::kUnavailable, msg).withRetryAfter(retry_after);
    case grpc::StatusCode::DATA_LOSS: return Status(StatusCode::kDataLoss, msg).withRetryAfter(retry_after);
    default:
      return Status(static_cast<StatusCode>(static_cast<int>(s.error_code())), msg);
  }
}

}  // namespace proflow
