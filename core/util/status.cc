#include "core/util/status.h"

namespace proflow {

bool Status::retryable() const {
  switch (code_) {
    case StatusCode::kCancelled:
    case StatusCode::kDeadlineExceeded:
    case StatusCode::kResourceExhausted:
    case StatusCode::kAborted:
    case StatusCode::kOutOfRange:
    case StatusCode::kUnavailable:
    case StatusCode::kDataLoss:
      return true;
    default:
      return false;
  }
}

const char* statusCodeName(StatusCode code) {
  switch (code) {
    case StatusCode::kOk: return "OK";
    case StatusCode::kCancelled: return "CANCELLED";
    case StatusCode::kInvalidArgument: return "INVALID_ARGUMENT";
    case StatusCode::kDeadlineExceeded: return "DEADLINE_EXCEEDED";
    case StatusCode::kNotFound: return "NOT_FOUND";
    case StatusCode::kPermissionDenied: return "PERMISSION_DENIED";
    case StatusCode::kResourceExhausted: return "RESOURCE_EXHAUSTED";
    case StatusCode::kFailedPrecondition: return "FAILED_PRECONDITION";
    case StatusCode::kAborted: return "ABORTED";
    case StatusCode::kOutOfRange: return "OUT_OF_RANGE";
    case StatusCode::kUnimplemented: return "UNIMPLEMENTED";
    case StatusCode::kInternal: return "INTERNAL";
    case StatusCode::kUnavailable: return "UNAVAILABLE";
    case StatusCode::kDataLoss: return "DATA_LOSS";
    case StatusCode::kUnauthenticated: return "UNAUTHENTICATED";
    case StatusCode::kPayloadTooLarge: return "PAYLOAD_TOO_LARGE";
  }
  return "UNKNOWN";
}

std::string Status::toString() const {
  if (isOk()) return "OK";
  return std::string(statusCodeName(code_)) + ": " + message_;
}

int httpStatusFor(const Status& s) {
  switch (s.code()) {
    case StatusCode::kOk: return 200;
    case StatusCode::kInvalidArgument:
    case StatusCode::kFailedPrecondition:
    case StatusCode::kOutOfRange: return 400;
    case StatusCode::kUnauthenticated: return 401;
    case StatusCode::kPermissionDenied: return 403;
    case StatusCode::kNotFound: return 404;
    case StatusCode::kPayloadTooLarge: return 413;
    case StatusCode::kResourceExhausted: return 429;
    case StatusCode::kUnimplemented: return 501;
    case StatusCode::kUnavailable:
    case StatusCode::kAborted:
    case StatusCode::kCancelled: return 503;
    case StatusCode::kDeadlineExceeded: return 504;
    default: return 500;
  }
}

Status statusFromHttp(int http_status, std::string message) {
  if (http_status >= 200 && http_status < 300) return Status::ok();
  switch (http_status) {
    case 400: return {StatusCode::kInvalidArgument, std::move(message)};
    case 401: return {StatusCode::kUnauthenticated, std::move(message)};
    case 403: return {StatusCode::kPermissionDenied, std::move(message)};
    case 404: return {StatusCode::kNotFound, std::move(message)};
    case 413: return {StatusCode::kPayloadTooLarge, std::move(message)};
    case 429: return {StatusCode::kResourceExhausted, std::move(message)};
    case 502:
    case 503: return {StatusCode::kUnavailable, std::move(message)};
    case 504: return {StatusCode::kDeadlineExceeded, std::move(message)};
    default:
      // OTLP: every other 4xx/5xx must not be retried.
      return {http_status >= 500 ? StatusCode::kInternal : StatusCode::kFailedPrecondition, std::move(message)};
  }
}

}  // namespace proflow
