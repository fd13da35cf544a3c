#include "receivers/perf/perf_receiver.h"

#include <boost/asio/post.hpp>

#include "core/auth/server_auth.h"
#include "core/net/http_util.h"
#include "core/net/in_flight_budget.h"
#include "core/net/receiver_server.h"

namespace proflow::receivers::perf {

PerfReceiver::PerfReceiver(const CreateSettings& settings, PerfReceiverConfig config, ConsumerPtr next)
    : settings_(settings), config_(std::move(config)), ingest_(config_, std::move(next), *settings_.telemetry) {}

PerfReceiver::~PerfReceiver() { shutdown(std::chrono::steady_clock::now()); }

Status PerfReceiver::start(Host& host) {
  if (!config_.endpoint.empty()) {
    net::HttpServerOptions opts;
    if (Status s =
            net::receiverServerOptions(config_.endpoint, config_.max_request_body_size.bytes, config_.max_inflate_ratio,
                                       config_.tls, settings_.runtime->workers().get_executor(), &opts);
        !s.isOk())
      return s;
    if (Status s = auth::applyServerAuth(host, config_.auth, &opts); !s.isOk()) return s;
    config_.server_limits.apply(config_.server_limits.makeBudget(), &opts);
    server_ = std::make_unique<net::HttpServer>(settings_.runtime->io(), opts, settings_.logger, settings_.telemetry);
    server_->route("POST", "/v1/perf", [this](net::HttpRequest&& req, net::Responder respond) {
      handlePost(std::move(req), std::move(respond));
    });
    if (Status s = server_->start(); !s.isOk()) return Status(s.code(), "perf receiver: " + s.message());
    settings_.logger->info("perf: POST http://{}/v1/perf (port {})", config_.endpoint, server_->port());
  }
  if (config_.directory) {
    // A file's samples end when perf record closed it: its modification time anchors their times.
    watcher_ = std::make_unique<DirectoryWatcher>(
        settings_, *config_.directory, config_.max_request_body_size.bytes, "perf",
        [this](std::string_view data, const std::filesystem::path& file) {
          std::error_code ec;
          const auto mtime = std::filesystem::last_write_time(file, ec);
          uint64_t end = 0;
          if (!ec) {
            const auto sys = std::chrono::file_clock::to_sys(mtime);
            end = static_cast<uint64_t>(
                std::chrono::duration_cast<std::chrono::nanoseconds>(sys.time_since_epoch()).count());
          }
          return ingest_.ingest(data, {{"perf.file.name", file.filename().string()}}, end);
        });
    if (Status s = watcher_->start(); !s.isOk()) return s;
  }
  return Status::ok();
}

void PerfReceiver::handlePost(net::HttpRequest&& req, net::Responder respond) {
  // Decoding a recording is CPU work: off the I/O thread.
  boost::asio::post(settings_.runtime->workers(), [this, req = std::move(req), respond]() {
    // The request's claim grows from its body to what conversion will hold, or it is refused (429
    // while other requests hold the budget, 413 when it alone is over it).
    std::function<Status(size_t)> reserve;
    if (req.in_flight)
      reserve = [lease = req.in_flight](size_t total) { return lease->resize(total, "decoded recording"); };
    Status s = ingest_.ingest(req.body, req.query, 0, std::move(reserve));
    if (s.isOk()) {
      respond(net::HttpResponse::text(200, ""));
      return;
    }
    auto r = net::defaultErrorFormatter(s, req);
    if (s.retryable()) r.headers.emplace_back("Retry-After", net::retryAfterSeconds(s));
    respond(std::move(r));
  });
}

void PerfReceiver::shutdown(Deadline) {
  if (server_) server_->stop();
  if (watcher_) watcher_->stop();
}

}  // namespace proflow::receivers::perf
