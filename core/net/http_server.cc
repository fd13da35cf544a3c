#include "core/net/http_server.h"

#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>

#include "core/net/endpoint.h"
#include "core/net/http_connection.h"
#include "core/telemetry/component_telemetry.h"

namespace proflow::net {
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

const char* rejectReasonName(RejectReason r) {
  switch (r) {
    case RejectReason::kBadRequest: return "bad_request";
    case RejectReason::kNotFound: return "not_found";
    case RejectReason::kMethodNotAllowed: return "method_not_allowed";
    case RejectReason::kTooLarge: return "too_large";
    case RejectReason::kHeaderTooLarge: return "header_too_large";
    case RejectReason::kUnsupportedEncoding: return "unsupported_encoding";
    case RejectReason::kBadEncoding: return "bad_encoding";
    case RejectReason::kTooManyConnections: return "too_many_connections";
    case RejectReason::kTlsHandshake: return "tls_handshake";
    case RejectReason::kUnauthenticated: return "unauthenticated";
    case RejectReason::kInFlightLimit: return "in_flight_limit";
    case RejectReason::kIdleShed: return "idle_connection_shed";
    case RejectReason::kBodyTimeout: return "body_timeout";
    case RejectReason::kForbidden: return "forbidden";
    case RejectReason::kAuthUnavailable: return "auth_unavailable";
  }
  return "unknown";
}

HttpResponse defaultErrorFormatter(const Status& status, const HttpRequest&) {
  return HttpResponse::text(httpStatusFor(status), status.message() + "\n");
}

void Responder::operator()(HttpResponse response) const {
  if (state_ && !state_->done.exchange(true)) state_->deliver(std::move(response));
}

Responder::State::~State() {
  if (!done.exchange(true) && deliver) {
    deliver(HttpResponse::text(500, "internal error: the request was dropped without a response\n"));
  }
}

HttpServer::Shared::Shared(asio::io_context& io, HttpServerOptions o, std::shared_ptr<spdlog::logger> l,
                           telemetry::ComponentTelemetry* t)
    : ioc(io), opts(std::move(o)), logger(std::move(l)), telemetry(t), acceptor(asio::make_strand(io)) {
  if (!telemetry) return;
  for (int i = 0; i < kRejectReasonCount; ++i) {
    auto labels = telemetry->labels();
    labels.emplace_back("reason", rejectReasonName(static_cast<RejectReason>(i)));
    reject_counters[i] = &telemetry->registry().counter(
        telemetry->prefix() + "http_rejected_requests_total",
        "HTTP requests the server refused before a handler saw them, by reason", labels);
  }
}

void HttpServer::Shared::reject(RejectReason r) {
  auto i = static_cast<size_t>(r);
  rejected[i].fetch_add(1, std::memory_order_relaxed);
  if (reject_counters[i]) reject_counters[i]->add();
}

void HttpServer::Shared::accept() {
  acceptor.async_accept(asio::make_strand(ioc), [self = shared_from_this()](boost::system::error_code ec,
                                                                             tcp::socket socket) {
    if (self->stopping || !self->acceptor.is_open()) return;
    if (ec) {
      // EMFILE and friends: log and keep accepting rather than going deaf.
      if (self->logger) self->logger->warn("HTTP accept on port {} failed: {}", self->port.load(), ec.message());
    } else {
      self->onAccepted(std::move(socket));
    }
    self->accept();
  });
}

void HttpServer::Shared::onAccepted(tcp::socket socket) {
  size_t count;
  {
    std::lock_guard<std::mutex> lock(mu);
    count = connections.size();
  }
  if (count >= opts.max_connections && !shedLongestWaiting()) {
    reject(RejectReason::kTooManyConnections);
    boost::system::error_code ignored;
    socket.close(ignored);
    return;
  }
  if (opts.tls)
    std::make_shared<detail::TlsConnection>(std::move(socket), shared_from_this())->start();
  else
    std::make_shared<detail::PlainConnection>(std::move(socket), shared_from_this())->start();
}

bool HttpServer::Shared::shedLongestWaiting() {
  std::shared_ptr<detail::ConnectionBase> victim;
  int64_t oldest = 0;
  {
    std::lock_guard<std::mutex> lock(mu);
    for (auto& [ptr, weak] : connections) {
      int64_t since = ptr->waiting_since_ns.load(std::memory_order_relaxed);
      if (since == 0 || (oldest != 0 && since >= oldest)) continue;
      if (auto c = weak.lock()) {
        victim = std::move(c);
        oldest = since;
      }
    }
  }
  if (!victim) return false;
  // Not waiting any more as far as the next accept is concerned; the close itself runs on the
  // connection's strand and only if it is still waiting then.
  victim->waiting_since_ns.store(0, std::memory_order_relaxed);
  victim->closeIfIdleAsync(true);
  reject(RejectReason::kIdleShed);
  return true;
}

void HttpServer::Shared::stopOnStrand() {
  boost::system::error_code ec;
  acceptor.close(ec);
  std::vector<std::shared_ptr<detail::ConnectionBase>> live;
  {
    std::lock_guard<std::mutex> lock(mu);
    for (auto& [ptr, weak] : connections) {
      if (auto c = weak.lock()) live.push_back(std::move(c));
    }
  }
  for (auto& c : live) c->closeIfIdleAsync(false);
}

HttpServer::HttpServer(asio::io_context& ioc, HttpServerOptions options, std::shared_ptr<spdlog::logger> logger,
                       telemetry::ComponentTelemetry* telemetry)
    : shared_(std::make_shared<Shared>(ioc, std::move(options), std::move(logger), telemetry)) {}

HttpServer::~HttpServer() { stop(); }

void HttpServer::route(std::string method, std::string path, HttpHandler handler, ErrorFormatter error_formatter) {
  shared_->routes.push_back({std::move(method), std::move(path), std::move(handler), std::move(error_formatter)});
}

void HttpServer::setDefaultErrorFormatter(ErrorFormatter f) {
  shared_->default_formatter = f ? std::move(f) : ErrorFormatter(defaultErrorFormatter);
}

Status HttpServer::start() {
  if (shared_->started.exchange(true)) return Status(StatusCode::kFailedPrecondition, "HTTP server already started");
  Endpoint ep;
  if (Status s = parseEndpoint(shared_->opts.endpoint, &ep); !s.isOk()) return s;
  if (Status s = listenOn(shared_->acceptor, ep); !s.isOk()) return s;
  boost::system::error_code ec;
  shared_->port = shared_->acceptor.local_endpoint(ec).port();
  asio::post(shared_->acceptor.get_executor(), [s = shared_] { s->accept(); });
  if (shared_->logger) shared_->logger->info("HTTP server listening on {}:{}", ep.host, shared_->port.load());
  return Status::ok();
}

uint16_t HttpServer::port() const { return shared_->port; }

void HttpServer::stop() {
  if (shared_->stopping.exchange(true)) return;
  asio::post(shared_->acceptor.get_executor(), [s = shared_] { s->stopOnStrand(); });
}

size_t HttpServer::connectionCount() const {
  std::lock_guard<std::mutex> lock(shared_->mu);
  return shared_->connections.size();
}

uint64_t HttpServer::rejected(RejectReason r) const {
  return shared_->rejected[static_cast<size_t>(r)].load(std::memory_order_relaxed);
}

}  // namespace proflow::net
