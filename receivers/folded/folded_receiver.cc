#include "receivers/folded/folded_receiver.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <charconv>
#include <chrono>

#include "core/compression/compression.h"
#include "core/formats/folded/folded.h"
#include "core/formats/pprof/conversion.h"
#include "core/net/http_util.h"
#include "core/net/in_flight_budget.h"
#include "core/receiverhelper/http_listener.h"
#include "core/util/utf8.h"

namespace proflow::receivers::folded {
namespace {

net::HttpResponse refusal(const Status& s) {
  net::HttpResponse r = net::HttpResponse::text(httpStatusFor(s), s.message() + "\n");
  if (s.retryable()) {
    r.status = 429;
    r.headers.emplace_back("Retry-After", net::retryAfterSeconds(s));
  }
  return r;
}

}  // namespace

FoldedReceiver::FoldedReceiver(const CreateSettings& settings, FoldedReceiverConfig config, ConsumerPtr next)
    : settings_(settings), config_(std::move(config)), next_(std::move(next)) {}

FoldedReceiver::~FoldedReceiver() {
  shutdown(std::chrono::steady_clock::now());
  pending_.drain(std::chrono::steady_clock::time_point::max());  // queued work still uses `this`
}

Status FoldedReceiver::start(Host& host) {
  if (Status s = receiverhelper::makeListener(host, settings_, config_, &server_); !s.isOk())
    return Status(s.code(), "folded receiver: " + s.message());
  auto& workers = settings_.runtime->workers();
  server_->route("POST", kFoldedPath, [this, &workers](net::HttpRequest&& req, net::Responder respond) {
    pending_.add();
    boost::asio::post(workers, [this, req = std::move(req), respond]() {
      respond(handle(req));
      pending_.done();
    });
  });
  if (Status s = server_->start(); !s.isOk()) return Status(s.code(), "folded receiver: " + s.message());
  settings_.logger->info("folded receiver listening on {} (port {}), POST {}", config_.endpoint, server_->port(),
                         kFoldedPath);
  return Status::ok();
}

net::HttpResponse FoldedReceiver::handle(const net::HttpRequest& req) {
  auto refuse = [&](const Status& s) {
    settings_.telemetry->record(telemetry::Event::kReceived, {});
    settings_.telemetry->record(telemetry::Event::kRefused, {});
    return refusal(s);
  };
  if (Status s = checkUtf8Parameters(req.query); !s.isOk()) return refuse(s);
  // The body itself may be gzip/zstd (a .folded.gz file posted as is): bounded like Content-Encoding.
  std::string inflated;  // empty when the body is the text itself (no copy)
  std::string_view text;
  compression::Limits limits;
  limits.max_output_bytes = config_.max_request_body_size.bytes;
  limits.max_inflate_ratio = config_.max_inflate_ratio;
  if (Status s = compression::inflateOrView(req.body, limits, &inflated, &text); !s.isOk()) return refuse(s);

  ::proflow::folded::FoldedOptions options;
  options.sample_type = config_.sample_type;
  options.sample_unit = config_.sample_unit;
  options.period = config_.period;
  std::vector<std::pair<std::string, std::string>> resource;
  for (const auto& [k, v] : config_.attributes) resource.emplace_back(k, v);
  for (const auto& param : req.query) {
    const std::string& k = param.first;  // named, not a structured binding: clang-14 cannot capture those
    const std::string& v = param.second;
    if (k == "sample_type" && !v.empty()) {
      options.sample_type = v;
    } else if (k == "sample_unit" && !v.empty()) {
      options.sample_unit = v;
    } else if (k == "period") {
      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), options.period);
      if (ec != std::errc() || p != v.data() + v.size() || options.period < 0)
        return refuse(Status::invalid("period must be a non-negative integer, got '" + v + "'"));
    } else if (!k.empty()) {
      auto it = std::find_if(resource.begin(), resource.end(), [&](const auto& kv) { return kv.first == k; });
      if (it != resource.end()) it->second = v;  // the request names its source better than the config
      else resource.emplace_back(k, v);
    }
  }
  if (options.period > 0) {
    options.scale_by_period = true;
    options.period_type = options.sample_type;
    options.period_unit = options.sample_unit;
  }
  options.time_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                        std::chrono::system_clock::now().time_since_epoch())
                        .count();
  ::proflow::pprof::PprofToOtlpOptions convert;
  convert.resource_attributes = std::move(resource);
  convert.scope_name = "proflow.receiver.folded";
  // The request's claim grows from its body to what parsing and conversion will hold, or it is
  // refused (429 while other requests hold the budget, 413 when it alone is over it).
  std::function<Status(size_t)> reserve;
  if (req.in_flight)
    reserve = [lease = req.in_flight](size_t total) { return lease->resize(total, "decoded folded stacks"); };
  flat::Batch batch;
  if (Status s = ::proflow::folded::foldedToFlat(text, options, convert, req.body.size() + inflated.size(), reserve,
                                                 &batch);
      !s.isOk())
    return refuse(s);
  Batch out(std::move(batch));
  out.setMetadata(config_.metadataOf(req));
  Status s = next_->consume(std::move(out));
  return s.isOk() ? net::HttpResponse::text(200, "") : refusal(s);
}

void FoldedReceiver::shutdown(Deadline deadline) {
  if (server_) server_->stop();
  // Bodies already accepted finish converting and reach the pipeline before it shuts down.
  pending_.drain(deadline);
}

}  // namespace proflow::receivers::folded
