#include "receivers/pprof/push_server.h"

#include <boost/asio/post.hpp>

#include "core/net/in_flight_budget.h"
#include "core/receiverhelper/http_listener.h"
#include "core/util/utf8.h"
#include "receivers/pprof/ingest.h"

namespace proflow::receivers::pprof {

struct PushServer::Context {
  PprofReceiverConfig config;
  ConsumerPtr next;
  telemetry::ComponentTelemetry* telemetry;

  void handle(const net::HttpRequest& req, const net::Responder& respond) const {
    if (Status s = checkUtf8Parameters(req.query); !s.isOk()) {
      telemetry->record(telemetry::Event::kReceived, {});
      telemetry->record(telemetry::Event::kRefused, {});
      respond(errorResponse(s));
      return;
    }
    ::proflow::pprof::DecodeOptions options;
    // The server bounded Content-Encoding; the body may itself be gzip/zstd, bounded the same way.
    options.limits.max_output_bytes = config.max_request_body_size.bytes;
    options.limits.max_inflate_ratio = config.max_inflate_ratio;
    Attributes attrs;
    for (const auto& [k, v] : config.attributes) setAttribute(attrs, k, v);
    for (const auto& [k, v] : req.query)
      if (!k.empty()) setAttribute(attrs, k, v);
    // The request's claim grows from its body to everything conversion will hold, or it is refused
    // (429 while other requests hold the budget, 413 when it alone is over it).
    std::function<Status(size_t)> reserve;
    if (req.in_flight)
      reserve = [lease = req.in_flight, body = req.body.size()](size_t conversion) {
        return lease->resize(body + conversion, "decoded profile");
      };
    Status s = deliverPprofBytes(req.body, options, attrs, *next, *telemetry, std::move(reserve));
    respond(s.isOk() ? net::HttpResponse::text(200, "") : errorResponse(s));
  }
};

PushServer::PushServer(const CreateSettings& settings, const PprofReceiverConfig& config, ConsumerPtr next)
    : settings_(settings), ctx_(std::make_shared<Context>(Context{config, std::move(next), settings.telemetry})) {}

PushServer::~PushServer() { stop(); }

Status PushServer::start(Host& host) {
  if (Status s = receiverhelper::makeListener(host, settings_, ctx_->config, &server_); !s.isOk())
    return Status(s.code(), "pprof push: " + s.message());
  auto& workers = settings_.runtime->workers();
  server_->route("POST", kPushPath, [ctx = ctx_, &workers](net::HttpRequest&& req, net::Responder respond) {
    boost::asio::post(workers, [ctx, req = std::move(req), respond]() { ctx->handle(req, respond); });
  });
  if (Status s = server_->start(); !s.isOk()) return Status(s.code(), "pprof push: " + s.message());
  settings_.logger->info("pprof push listening on {} (port {}), POST {}", ctx_->config.endpoint, server_->port(),
                         kPushPath);
  return Status::ok();
}

void PushServer::stop() {
  if (server_) server_->stop();
}

}  // namespace proflow::receivers::pprof
