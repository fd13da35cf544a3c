#include "receivers/datadog/datadog_receiver.h"

#include <boost/asio/post.hpp>
#include <spdlog/logger.h>

#include <atomic>

#include "core/net/http_util.h"
#include "core/net/in_flight_budget.h"
#include "core/receiverhelper/http_listener.h"
#include "core/receiverhelper/pending_requests.h"
#include "core/telemetry/component_telemetry.h"
#include "receivers/datadog/agent_api.h"
#include "receivers/datadog/convert.h"
#include "receivers/datadog/forwarder.h"
#include "receivers/datadog/intake.h"

namespace proflow::receivers::datadog {

struct DatadogReceiver::State {
  State(const CreateSettings& s, DatadogReceiverConfig c, ConsumerPtr n)
      : settings(s),
        config(std::move(c)),
        next(std::move(n)),
        pending(config.max_concurrent_requests),
        dropped(s.telemetry->counter("datadog_dropped_requests_total",
                                     "trace-agent requests (traces, stats, telemetry, ...) answered and dropped")),
        uploads(s.telemetry->counter("datadog_profile_uploads_total", "profile uploads decoded into the pipeline")),
        invalid(s.telemetry->counter("datadog_invalid_uploads_total",
                                     "profile uploads that could not be decoded (400/413)")),
        derived(s.telemetry->counter("datadog_derived_trace_ids_total",
                                     "samples whose link trace id was derived from the local root span id")) {}

  CreateSettings settings;
  DatadogReceiverConfig config;
  ConsumerPtr next;
  receiverhelper::PendingRequests pending;  // uploads queued or decoding on the worker pool
  std::unique_ptr<Forwarder> forwarder;
  std::atomic<int> port{0};  // bound port, for /info
  telemetry::Counter& dropped;
  telemetry::Counter& uploads;
  telemetry::Counter& invalid;
  telemetry::Counter& derived;
};

namespace {

using RequestPtr = std::shared_ptr<const net::HttpRequest>;

int refusalStatus(const Status& s) {
  if (s.code() == StatusCode::kPayloadTooLarge) return 413;
  return s.code() == StatusCode::kResourceExhausted ? 429 : 400;
}

net::HttpResponse errorResponse(int status, const Status& s) {
  net::HttpResponse r = net::HttpResponse::text(status, s.message());
  if (status == 429 || s.retryable()) r.headers.emplace_back("Retry-After", net::retryAfterSeconds(s));
  return r;
}

// Header tags: what an Agent in front of us added, and the container the tracer runs in.
Tags headerTags(const net::HttpRequest& req) {
  Tags tags;
  splitTags(req.header("x-datadog-additional-tags"), &tags);
  if (const auto id = req.header("datadog-container-id"); !id.empty()) tags.emplace_back("container_id", std::string(id));
  return tags;
}

// Decodes an upload into the pipeline. The answer (when the client waits for ours, not the Agent's)
// goes to `respond`.
void handleUpload(DatadogReceiver::State& st, const net::HttpRequest& req, const net::Responder* respond) {
  auto refuse = [&](int status, const Status& s) {
    st.settings.telemetry->record(telemetry::Event::kReceived, {});
    st.settings.telemetry->record(telemetry::Event::kRefused, {});
    if (status != 429) st.invalid.add();
    st.settings.logger->debug("datadog upload from {} refused: {}", req.remote_address, s.message());
    if (respond) (*respond)(errorResponse(status, s));
  };
  Intake intake;
  if (Status s = parseIntake(req.header("content-type"), req.body, &intake); !s.isOk()) return refuse(400, s);
  ConvertOptions options;
  options.limits.max_output_bytes = st.config.max_profile_size.bytes;
  options.limits.max_inflate_ratio = st.config.max_inflate_ratio;
  options.merge_generated_names = !st.config.keep_generated_names;
  if (req.in_flight)
    options.reserve_memory = [lease = req.in_flight, body = req.body.size()](size_t bytes) {
      return lease->resize(body + bytes, "decoded profile");
    };
  const Tags header_tags = headerTags(req);
  if (Status s = checkTagCount(header_tags, "X-Datadog-Additional-Tags"); !s.isOk()) return refuse(400, s);
  flat::Batch converted;
  ConvertStats stats;
  if (Status s = convertIntake(intake, header_tags, options, &converted, &stats); !s.isOk())
    return refuse(refusalStatus(s), s);
  st.uploads.add();
  st.derived.add(stats.derived_trace_ids);
  Batch batch(std::move(converted));
  batch.setMetadata(st.config.metadataOf(req));
  Status s = st.next->consume(std::move(batch));
  if (!respond) return;
  if (!s.isOk()) return (*respond)(errorResponse(s.retryable() ? 429 : 400, s));
  net::HttpResponse ok;
  ok.status = 200;  // the Agent turns the intake's 202 into 200 for old clients
  (*respond)(std::move(ok));
}

// POST /profiling/v1/input.
void onUpload(const std::shared_ptr<DatadogReceiver::State>& st, net::HttpRequest&& req, net::Responder respond) {
  auto shared = std::make_shared<const net::HttpRequest>(std::move(req));
  const bool tap = st->forwarder != nullptr;
  if (tap) st->forwarder->forward(shared, respond);
  // Bodies wait in memory until a worker decodes them: bound how many may wait.
  if (!st->pending.tryAdd()) {
    st->settings.telemetry->record(telemetry::Event::kReceived, {});
    st->settings.telemetry->record(telemetry::Event::kRefused, {});
    if (!tap) respond(errorResponse(429, Status::exhausted("too many concurrent profile uploads")));
    return;
  }
  boost::asio::post(st->settings.runtime->workers(), [st, shared, respond, tap]() {
    handleUpload(*st, *shared, tap ? nullptr : &respond);
    st->pending.done();
  });
}

net::HttpResponse formatServerError(const Status& s, const net::HttpRequest& r) {
  return net::defaultErrorFormatter(s, r);
}

void addLocalRoutes(const std::shared_ptr<DatadogReceiver::State>& st, net::HttpServer& server) {
  server.route("GET", "/info", [st](net::HttpRequest&&, net::Responder respond) {
    net::HttpResponse r;
    r.status = 200;
    r.body = infoBody(st->port.load(), st->config.max_request_body_size.bytes);  // no Content-Type, as the Agent
    respond(std::move(r));
  }, formatServerError);
  for (const DroppedPath& d : droppedPaths())
    for (const char* method : {"POST", "PUT"})
      server.route(method, std::string(d.path), [st, d](net::HttpRequest&&, net::Responder respond) {
        st->dropped.add();
        respond(net::HttpResponse{200, std::string(d.content_type), std::string(d.body), {}});
      }, formatServerError);
}

void addForwardRoutes(const std::shared_ptr<DatadogReceiver::State>& st, net::HttpServer& server) {
  for (const char* method : {"GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"})
    server.route(method, "/*", [st](net::HttpRequest&& req, net::Responder respond) {
      st->forwarder->forward(std::make_shared<const net::HttpRequest>(std::move(req)), std::move(respond));
    }, formatServerError);
}

}  // namespace

DatadogReceiver::DatadogReceiver(const CreateSettings& settings, DatadogReceiverConfig config, ConsumerPtr next)
    : state_(std::make_shared<State>(settings, std::move(config), std::move(next))) {}

DatadogReceiver::~DatadogReceiver() { shutdown(std::chrono::steady_clock::now()); }

Status DatadogReceiver::start(Host& host) {
  const auto& cfg = state_->config;
  if (Status s = receiverhelper::makeListener(host, state_->settings, cfg, &server_); !s.isOk())
    return Status(s.code(), "datadog receiver: " + s.message());
  if (!cfg.forward_to.empty()) {
    state_->forwarder = std::make_unique<Forwarder>(state_->settings, cfg);
    if (Status s = state_->forwarder->start(); !s.isOk()) return s;
  }
  // Registered first so the exact routes below win.
  if (state_->forwarder) addForwardRoutes(state_, *server_);
  else addLocalRoutes(state_, *server_);
  server_->route("POST", std::string(kProfilingPath), [st = state_](net::HttpRequest&& req, net::Responder respond) {
    onUpload(st, std::move(req), std::move(respond));
  }, formatServerError);
  server_->setDefaultErrorFormatter(formatServerError);
  if (Status s = server_->start(); !s.isOk()) return Status(s.code(), "datadog receiver: " + s.message());
  state_->port = server_->port();
  state_->settings.logger->info("Datadog Agent intake listening on {} (port {}){}", cfg.endpoint, server_->port(),
                                state_->forwarder ? ", forwarding to " + cfg.forward_to : "");
  return Status::ok();
}

void DatadogReceiver::shutdown(Deadline deadline) {
  if (server_) server_->stop();
  // Uploads already accepted finish decoding and reach the pipeline before it shuts down.
  state_->pending.drain(deadline);
  if (state_->forwarder) state_->forwarder->stop(deadline);
}

}  // namespace proflow::receivers::datadog
