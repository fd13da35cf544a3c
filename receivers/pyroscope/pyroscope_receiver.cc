#include "receivers/pyroscope/pyroscope_receiver.h"

#include <boost/asio/post.hpp>
#include <spdlog/logger.h>

#include "core/net/http_util.h"
#include "core/net/in_flight_budget.h"
#include "core/receiverhelper/http_listener.h"
#include "core/receiverhelper/pending_requests.h"
#include "core/util/json/json_writer.h"
#include "receivers/pyroscope/ingest_converter.h"
#include "receivers/pyroscope/ingest_params.h"

namespace proflow::receivers::pyroscope {

struct PyroscopeReceiver::State {
  State(const CreateSettings& s, PyroscopeReceiverConfig c, ConsumerPtr n)
      : settings(s), config(std::move(c)), next(std::move(n)), pending(config.max_concurrent_requests) {}
  CreateSettings settings;
  PyroscopeReceiverConfig config;
  ConsumerPtr next;
  receiverhelper::PendingRequests pending;  // requests queued or converting on the worker pool
};

namespace {

// Connect's code names, which Pyroscope puts in "code".
const char* connectCode(StatusCode c) {
  switch (c) {
    case StatusCode::kOk: return "ok";
    case StatusCode::kCancelled: return "canceled";
    case StatusCode::kInvalidArgument: return "invalid_argument";
    case StatusCode::kDeadlineExceeded: return "deadline_exceeded";
    case StatusCode::kNotFound: return "not_found";
    case StatusCode::kPermissionDenied: return "permission_denied";
    case StatusCode::kResourceExhausted:
    case StatusCode::kPayloadTooLarge: return "resource_exhausted";
    case StatusCode::kFailedPrecondition: return "failed_precondition";
    case StatusCode::kAborted: return "aborted";
    case StatusCode::kOutOfRange: return "out_of_range";
    case StatusCode::kUnimplemented: return "unimplemented";
    case StatusCode::kInternal: return "internal";
    case StatusCode::kUnavailable: return "unavailable";
    case StatusCode::kDataLoss: return "data_loss";
    case StatusCode::kUnauthenticated: return "unauthenticated";
  }
  return "unknown";
}

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// HTTP status for a conversion failure: limits 413, a busy in-flight budget 429 (retry later),
// everything else about the body 422.
int conversionHttpStatus(const Status& s) {
  if (s.code() == StatusCode::kPayloadTooLarge) return 413;
  return s.code() == StatusCode::kResourceExhausted ? 429 : 422;
}

net::HttpResponse pipelineRefusal(const Status& s) {
  if (!s.retryable()) return pyroscopeError(422, s);
  net::HttpResponse r = pyroscopeError(429, Status::exhausted(s.message()));
  r.headers.emplace_back("Retry-After", net::retryAfterSeconds(s));
  return r;
}

void refuse(PyroscopeReceiver::State& st, const net::Responder& respond, net::HttpResponse r) {
  st.settings.telemetry->record(telemetry::Event::kReceived, {});
  st.settings.telemetry->record(telemetry::Event::kRefused, {});
  respond(std::move(r));
}

// Runs on the worker pool: query -> flat batch -> pipeline -> answer.
void handleIngest(PyroscopeReceiver::State& st, const net::HttpRequest& req, const net::Responder& respond) {
  IngestParams params;
  if (Status s = parseIngestParams(req.query, nowNs(), &params); !s.isOk())
    return refuse(st, respond, pyroscopeError(400, s));
  ConvertOptions options;
  options.limits.max_output_bytes = st.config.max_profile_size.bytes;
  options.limits.max_inflate_ratio = st.config.max_inflate_ratio;
  options.merge_generated_names = !st.config.keep_generated_names;
  // The request's claim grows from its body to what parsing and conversion will hold, or it is refused.
  if (req.in_flight)
    options.reserve_memory = [lease = req.in_flight, body = req.body.size()](size_t bytes) {
      return lease->resize(body + bytes, "decoded profile");
    };
  flat::Batch converted;
  if (Status s = convertIngest(params, req.header("content-type"), req.body, options, &converted); !s.isOk()) {
    st.settings.logger->debug("pyroscope ingest from {} refused: {}", req.remote_address, s.message());
    net::HttpResponse r = pyroscopeError(conversionHttpStatus(s), s);
    if (s.retryable()) r.headers.emplace_back("Retry-After", net::retryAfterSeconds(s));
    return refuse(st, respond, std::move(r));
  }
  net::HttpResponse ok;
  Batch batch(std::move(converted));
  batch.setMetadata(st.config.metadataOf(req));
  if (batch.empty()) {  // e.g. a JFR recording without profiling events: nothing to send on
    ok.status = 200;
    return respond(std::move(ok));
  }
  Status s = st.next->consume(std::move(batch));
  if (!s.isOk()) return respond(pipelineRefusal(s));
  ok.status = 200;  // empty body: SDKs treat any other answer as a failure
  respond(std::move(ok));
}

net::HttpResponse formatServerError(const Status& s, const net::HttpRequest&) { return pyroscopeError(400, s); }

}  // namespace

net::HttpResponse pyroscopeError(int http_status, const Status& status) {
  net::HttpResponse r;
  r.status = http_status;
  r.content_type = "application/json";
  json::Writer(&r.body).beginObject().key("code").string(connectCode(status.code())).key("message").string(status.message()).endObject();
  return r;
}

PyroscopeReceiver::PyroscopeReceiver(const CreateSettings& settings, PyroscopeReceiverConfig config, ConsumerPtr next)
    : state_(std::make_shared<State>(settings, std::move(config), std::move(next))) {}

PyroscopeReceiver::~PyroscopeReceiver() { shutdown(std::chrono::steady_clock::now()); }

Status PyroscopeReceiver::start(Host& host) {
  const auto& cfg = state_->config;
  if (Status s = receiverhelper::makeListener(host, state_->settings, cfg, &server_); !s.isOk())
    return Status(s.code(), "pyroscope receiver: " + s.message());
  for (const char* path : {"/ingest", "/pyroscope/ingest"}) {
    // The state is shared with queued work so a request in flight during shutdown stays valid.
    server_->route("POST", path, [st = state_](net::HttpRequest&& req, net::Responder respond) {
      // Bodies wait in memory until a worker converts them: bound how many may wait.
      if (!st->pending.tryAdd()) {
        net::HttpResponse busy = pyroscopeError(429, Status::exhausted("too many concurrent ingest requests"));
        busy.headers.emplace_back("Retry-After", "1");
        return refuse(*st, respond, std::move(busy));
      }
      boost::asio::post(st->settings.runtime->workers(), [st, req = std::move(req), respond]() {
        handleIngest(*st, req, respond);
        st->pending.done();
      });
    }, formatServerError);
  }
  server_->setDefaultErrorFormatter(formatServerError);
  if (Status s = server_->start(); !s.isOk()) return Status(s.code(), "pyroscope receiver: " + s.message());
  state_->settings.logger->info("Pyroscope ingest listening on {} (port {})", cfg.endpoint, server_->port());
  return Status::ok();
}

void PyroscopeReceiver::shutdown(Deadline deadline) {
  if (server_) server_->stop();
  // Requests already accepted finish converting and reach the pipeline before it shuts down.
  state_->pending.drain(deadline);
}

}  // namespace proflow::receivers::pyroscope
