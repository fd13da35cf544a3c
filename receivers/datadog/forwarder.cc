#include "receivers/datadog/forwarder.h"

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <spdlog/logger.h>

#include <string_view>
#include <thread>

#include "core/telemetry/component_telemetry.h"
#include "core/util/ascii.h"

namespace proflow::receivers::datadog {
namespace {

// Headers that describe one hop (RFC 9110 7.6.1) or a body form the server or client changes.
bool hopByHop(std::string_view name) {
  for (std::string_view h : {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer",
                             "upgrade", "host", "content-length", "content-encoding", "expect"})
    if (iequals(name, h)) return true;
  return false;
}

net::HttpResponse failure(int status, std::string message) {
  return net::HttpResponse::text(status, std::move(message));
}

}  // namespace

Forwarder::Forwarder(const CreateSettings& settings, const DatadogReceiverConfig& config)
    : settings_(settings),
      base_(config.forward_to),
      timeout_(config.forward_timeout.ms()),
      max_pending_(config.max_concurrent_forwards),
      workers_(config.forward_workers),
      forwarded_(settings.telemetry->counter("datadog_forwarded_requests_total",
                                             "requests passed on to the Datadog Agent and answered by it")),
      failed_(settings.telemetry->counter("datadog_forward_failures_total",
                                          "requests not forwarded: Agent unreachable (502), slow (504) or busy (503)")) {
  while (!base_.empty() && base_.back() == '/') base_.pop_back();
  net::HttpClientOptions opts;
  opts.tls = config.forward_tls.clientOptions();
  opts.max_response_bytes = config.max_forward_response_size.bytes;
  opts.max_idle_per_host = static_cast<size_t>(config.forward_workers);
  client_ = std::make_unique<net::HttpClient>(opts);
}

Forwarder::~Forwarder() { stop(std::chrono::steady_clock::now()); }

Status Forwarder::start() {
  if (Status s = client_->tlsStatus(); !s.isOk()) return Status(s.code(), "datadog receiver forward_tls: " + s.message());
  pool_ = std::make_unique<boost::asio::thread_pool>(static_cast<size_t>(workers_));
  return Status::ok();
}

void Forwarder::forward(std::shared_ptr<const net::HttpRequest> req, net::Responder respond) {
  if (!pool_ || pending_.fetch_add(1) >= max_pending_) {
    pending_.fetch_sub(1);
    failed_.add();
    net::HttpResponse busy = failure(503, "proflow: " + std::to_string(max_pending_) +
                                              " requests are already waiting for the Datadog Agent "
                                              "(max_concurrent_forwards); retry later");
    busy.headers.emplace_back("Retry-After", "1");
    return respond(std::move(busy));
  }
  boost::asio::post(*pool_, [this, req = std::move(req), respond]() {
    respond(exchange(*req));
    pending_.fetch_sub(1);
  });
}

net::HttpResponse Forwarder::exchange(const net::HttpRequest& req) {
  net::HttpHeaders headers;
  for (const auto& [k, v] : req.headers)
    if (!hopByHop(k)) headers.emplace(k, v);
  const std::string url = base_ + req.target;
  net::HttpResult r = client_->request(req.method, url, headers, req.body, timeout_);
  if (!r.status.isOk()) {
    failed_.add();
    settings_.logger->debug("forwarding {} {} to the Datadog Agent failed: {}", req.method, req.path, r.status.message());
    if (r.status.code() == StatusCode::kDeadlineExceeded)
      return failure(504, "proflow: the Datadog Agent at " + base_ + " did not answer within " +
                              std::to_string(timeout_.count()) + " ms");
    if (r.status.code() == StatusCode::kPayloadTooLarge)
      return failure(502, "proflow: the Datadog Agent's answer is over max_forward_response_size");
    return failure(502, "proflow: the Datadog Agent at " + base_ + " is unreachable: " + r.status.message());
  }
  forwarded_.add();
  net::HttpResponse out;
  out.status = r.http_status;
  out.body = std::move(r.body);
  for (const auto& [k, v] : r.headers) {
    if (iequals(k, "content-type")) out.content_type = v;
    else if (!hopByHop(k) && !iequals(k, "date") && !iequals(k, "server")) out.headers.emplace_back(k, v);
  }
  return out;
}

void Forwarder::stop(std::chrono::steady_clock::time_point deadline) {
  if (!pool_) return;
  while (pending_.load() > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  pool_->stop();  // queued exchanges are dropped (their clients get a 500), running ones end within the timeout
  pool_->join();
  pool_.reset();
}

}  // namespace proflow::receivers::datadog
