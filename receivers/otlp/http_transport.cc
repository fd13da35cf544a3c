#include "receivers/otlp/http_transport.h"

#include <boost/asio/post.hpp>

#include "core/auth/server_auth.h"
#include "core/formats/otlp_json/otlp_json.h"
#include "core/net/grpc_status.h"
#include "core/net/http_syntax.h"
#include "core/net/http_util.h"
#include "core/net/in_flight_budget.h"
#include "core/net/receiver_server.h"
#include "core/model/otlp_profiles_version.h"
#include "google/rpc/status.pb.h"
#include "core/receiverhelper/http_listener.h"
#include "receivers/otlp/otlp_ingest.h"

namespace proflow::receivers::otlp {
namespace {

constexpr const char* kPath = "/v1development/profiles";
constexpr const char* kProtobuf = "application/x-protobuf";
constexpr const char* kJson = "application/json";

enum class Encoding { kProtobuf, kJson, kUnsupported };

Encoding encodingOf(const net::HttpRequest& req) {
  const std::string_view ct = req.header("content-type");
  if (net::isMediaType(ct, kProtobuf)) return Encoding::kProtobuf;
  if (net::isMediaType(ct, kJson)) return Encoding::kJson;
  return Encoding::kUnsupported;
}


}  // namespace

net::HttpResponse otlpErrorResponse(const Status& status, const net::HttpRequest& request) {
  const int code = static_cast<int>(toGrpcStatus(status).error_code());
  net::HttpResponse r;
  r.status = httpStatusFor(status);
  if (encodingOf(request) == Encoding::kJson) {
    r.content_type = kJson;
    r.body = otlp_json::encodeRpcStatus(code, status.message());
  } else {
    google::rpc::Status body;
    body.set_code(code);
    body.set_message(status.message());
    r.content_type = kProtobuf;
    r.body = body.SerializeAsString();
  }
  if (status.retryable()) r.headers.emplace_back("Retry-After", net::retryAfterSeconds(status));
  return r;
}

HttpTransport::HttpTransport(const CreateSettings& settings, HttpProtocolConfig config, ConsumerPtr next,
                             const net::ServerLimitsConfig& limits, std::shared_ptr<net::InFlightBudget> budget)
    : settings_(settings), config_(std::move(config)), next_(std::move(next)), limits_(limits), budget_(std::move(budget)) {}

HttpTransport::~HttpTransport() { shutdown(std::chrono::steady_clock::now()); }

Status HttpTransport::start(Host& host) {
  net::HttpServerOptions opts;
  if (Status s = net::receiverServerOptions(config_.endpoint, config_.max_request_body_size.bytes,
                                            config_.max_inflate_ratio, config_.tls,
                                            settings_.runtime->workers().get_executor(), &opts);
      !s.isOk())
    return Status(s.code(), "OTLP/HTTP: " + s.message());
  if (Status s = auth::applyServerAuth(host, config_.auth, &opts); !s.isOk())
    return Status(s.code(), "OTLP/HTTP: " + s.message());
  limits_.apply(budget_, &opts);
  server_ = std::make_unique<net::HttpServer>(settings_.runtime->io(), opts, settings_.logger, settings_.telemetry);
  server_->route("POST", kPath, [this](net::HttpRequest&& req, net::Responder respond) {
    handle(std::move(req), std::move(respond));
  }, otlpErrorResponse);
  if (Status s = server_->start(); !s.isOk()) return Status(s.code(), "OTLP/HTTP: " + s.message());
  settings_.logger->info("OTLP/HTTP listening on {} (port {})", config_.endpoint, server_->port());
  return Status::ok();
}

void HttpTransport::handle(net::HttpRequest&& req, net::Responder respond) {
  const Encoding enc = encodingOf(req);
  if (enc == Encoding::kUnsupported) {
    settings_.telemetry->record(telemetry::Event::kReceived, {});
    settings_.telemetry->record(telemetry::Event::kRefused, {});
    auto r = otlpErrorResponse(Status::invalid("unsupported Content-Type '" + std::string(req.header("content-type")) +
                                               "': use application/x-protobuf or application/json"),
                               req);
    r.status = 415;
    respond(std::move(r));
    return;
  }
  std::vector<std::string_view> versions;
  for (auto [it, end] = req.headers.equal_range(kProfilesVersionHeader); it != end; ++it) versions.push_back(it->second);
  if (Status s = checkProfilesVersion(versions); !s.isOk()) {
    settings_.telemetry->record(telemetry::Event::kReceived, {});
    settings_.telemetry->record(telemetry::Event::kRefused, {});
    respond(otlpErrorResponse(s, req));
    return;
  }
  // Decoding can take a while for big bodies: keep it off the I/O thread.
  boost::asio::post(settings_.runtime->workers(), [this, req = std::move(req), respond, enc]() mutable {
    // Straight into a flat batch, from either encoding; what decoding allocates is charged as it is allocated.
    std::function<Status(size_t)> claim;
    if (req.in_flight) {
      const size_t body = req.in_flight->bytes();
      claim = [lease = req.in_flight, body](size_t decoded) { return lease->resize(body + decoded, "decoded request"); };
    }
    // Processors running on this thread (a transform) charge what they add to the request's claim.
    net::CurrentLease current(req.in_flight.get());
    ClientMetadataPtr metadata = config_.include_metadata ? receiverhelper::requestMetadata(req) : nullptr;
    IngestResult r = enc == Encoding::kJson
                         ? ingestJson(req.body, *next_, *settings_.telemetry, std::move(claim),
                                      config_.max_request_body_size.bytes, std::move(metadata))
                         : ingestWire(req.body, *next_, *settings_.telemetry, std::move(claim), std::move(metadata));
    if (!r.status.isOk()) {
      respond(otlpErrorResponse(r.status, req));
      return;
    }
    net::HttpResponse ok;
    ok.status = 200;
    if (enc == Encoding::kJson) {
      ok.content_type = kJson;
      const auto& partial = r.response.partial_success();
      ok.body = otlp_json::encodeResponse(partial.rejected_profiles(), partial.error_message(),
                                          r.response.has_partial_success());
    } else {
      ok.content_type = kProtobuf;
      ok.body = r.response.SerializeAsString();
    }
    respond(std::move(ok));
  });
}

void HttpTransport::shutdown(Deadline) {
  if (server_) server_->stop();
}

}  // namespace proflow::receivers::otlp
