// Result of handing data to a component: success, or why not and whether trying again can help.
#pragma once

#include <chrono>
#include <string>
#include <utility>

namespace proflow {

// The subset of gRPC codes the pipeline distinguishes. Receivers map them onto their protocol
// (gRPC status, HTTP 4xx/5xx); exporters map their peer's answers onto them.
enum class StatusCode {
  kOk = 0,
  kCancelled = 1,
  kInvalidArgument = 3,   // the data will never be accepted (permanent)
  kDeadlineExceeded = 4,  // retryable
  kNotFound = 5,
  kPermissionDenied = 7,
  kResourceExhausted = 8,  // refused for now: queue full, memory limit, rate limit (retryable)
  kFailedPrecondition = 9,
  kAborted = 10,
  kOutOfRange = 11,
  kUnimplemented = 12,
  kInternal = 13,
  kUnavailable = 14,  // peer down or shutting down (retryable)
  kDataLoss = 15,
  kUnauthenticated = 16,
  kPayloadTooLarge = 100,  // proflow-specific: exceeds a size limit (413 / RESOURCE_EXHAUSTED, permanent)
};

// [[nodiscard]]: every function returning a Status by value warns (an error in our builds, see
// PROFLOW_WARNINGS) when its caller ignores it; a result deliberately not acted upon is discarded
// with `(void)` and a comment saying why.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok() { return {}; }
  static Status invalid(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
  static Status exhausted(std::string m) { return {StatusCode::kResourceExhausted, std::move(m)}; }
  static Status unavailable(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
  static Status tooLarge(std::string m) { return {StatusCode::kPayloadTooLarge, std::move(m)}; }
  static Status internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }

  bool isOk() const { return code_ == StatusCode::kOk; }
  explicit operator bool() const { return isOk(); }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // True when sending the same data again later may succeed.
  bool retryable() const;

  // Server-suggested wait before retrying (Retry-After, RetryInfo); zero when not given.
  std::chrono::milliseconds retryAfter() const { return retry_after_; }
  Status& withRetryAfter(std::chrono::milliseconds d) {
    retry_after_ = d;
    return *this;
  }

  std::string toString() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
  std::chrono::milliseconds retry_after_{0};
};

const char* statusCodeName(StatusCode code);

// HTTP status a receiver answers for a pipeline status, and the reverse for exporters.
int httpStatusFor(const Status& s);
Status statusFromHttp(int http_status, std::string message);

}  // namespace proflow
