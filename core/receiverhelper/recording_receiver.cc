#include "core/receiverhelper/recording_receiver.h"

#include <boost/asio/post.hpp>

#include "core/compression/compression.h"
#include "core/flat/flat_attributes.h"
#include "core/net/http_util.h"
#include "core/net/in_flight_budget.h"
#include "core/runtime/runtime.h"

namespace proflow::receiverhelper {
namespace {

// When `file` was last written, in Unix nanoseconds (0 when it cannot be read).
uint64_t modificationTime(const std::filesystem::path& file) {
  std::error_code ec;
  const auto mtime = std::filesystem::last_write_time(file, ec);
  if (ec) return 0;
  const auto since_epoch = std::chrono::file_clock::to_sys(mtime).time_since_epoch();
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(since_epoch).count());
}

}  // namespace

RecordingReceiver::RecordingReceiver(const CreateSettings& settings, RecordingInputs inputs, RecordingDecoder decode,
                                     ConsumerPtr next)
    : settings_(settings), inputs_(std::move(inputs)), decode_(std::move(decode)), next_(std::move(next)) {}

RecordingReceiver::~RecordingReceiver() {
  shutdown(std::chrono::steady_clock::now());
  pending_.drain(std::chrono::steady_clock::time_point::max());  // queued work still uses `this`
}

Status RecordingReceiver::start(Host& host) {
  if (!inputs_.listener.endpoint.empty()) {
    if (Status s = makeListener(host, settings_, inputs_.listener, &server_); !s.isOk())
      return Status(s.code(), inputs_.kind + " receiver: " + s.message());
    server_->route("POST", inputs_.path, [this](net::HttpRequest&& req, net::Responder respond) {
      handlePost(std::move(req), std::move(respond));
    });
    if (Status s = server_->start(); !s.isOk()) return Status(s.code(), inputs_.kind + " receiver: " + s.message());
    settings_.logger->info("{} receiver: POST http://{}{} (port {})", inputs_.kind, inputs_.listener.endpoint,
                           inputs_.path, server_->port());
  }
  if (inputs_.directory) {
    // A file's recording ended when its producer last wrote it: decoders of formats without a
    // wall-clock anchor (perf) place its samples from that time.
    watcher_ = std::make_unique<DirectoryWatcher>(
        settings_, *inputs_.directory, inputs_.listener.max_request_body_size.bytes, inputs_.kind,
        [this](std::string_view data, const std::filesystem::path& file) {
          return ingest(data, {{inputs_.kind + ".file.name", file.filename().string()}}, modificationTime(file), {});
        });
    if (Status s = watcher_->start(); !s.isOk()) return s;
  }
  return Status::ok();
}

void RecordingReceiver::handlePost(net::HttpRequest&& req, net::Responder respond) {
  // Decoding a recording is CPU work: off the I/O thread.
  pending_.add();
  boost::asio::post(settings_.runtime->workers(), [this, req = std::move(req), respond]() {
    // The request's claim grows from its body to what decoding will hold, or it is refused (429
    // while other requests hold the budget, 413 when it alone is over it).
    std::function<Status(size_t)> reserve;
    if (req.in_flight)
      reserve = [lease = req.in_flight](size_t total) { return lease->resize(total, "decoded recording"); };
    const Status s = ingest(req.body, req.query, 0, std::move(reserve));
    if (s.isOk()) {
      respond(net::HttpResponse::text(200, ""));
    } else {
      auto r = net::defaultErrorFormatter(s, req);
      if (s.retryable()) r.headers.emplace_back("Retry-After", net::retryAfterSeconds(s));
      respond(std::move(r));
    }
    pending_.done();
  });
}

Status RecordingReceiver::ingest(std::string_view body, const std::multimap<std::string, std::string>& extra,
                                 uint64_t end_time_unix_nano, std::function<Status(size_t bytes)> reserve) {
  auto refuse = [&](Status s) {
    settings_.telemetry->record(telemetry::Event::kReceived, {});
    settings_.telemetry->record(telemetry::Event::kRefused, {});
    return s;
  };
  compression::Limits limits;
  limits.max_output_bytes = inputs_.listener.max_request_body_size.bytes;
  limits.max_inflate_ratio = inputs_.listener.max_inflate_ratio;
  std::string inflated;  // empty when the body is the recording itself (no copy)
  std::string_view raw;
  if (Status s = compression::inflateOrView(body, limits, &inflated, &raw); !s.isOk()) return refuse(s);
  Recording recording{raw, end_time_unix_nano, {}};
  // The decoder claims its estimate (the recording's bytes included) before reading it, then
  // ahead of its output; a compressed body is held beside its inflated copy.
  if (reserve)
    recording.reserve_memory = [&reserve, held = inflated.empty() ? 0 : body.size()](size_t decoding) {
      return reserve(held + decoding);
    };
  flat::Batch converted;
  if (Status s = decode_(recording, &converted); !s.isOk()) return refuse(s);
  if (converted.resources.empty()) return Status::ok();  // nothing profiled in it
  for (const auto& [k, v] : inputs_.attributes) flat::addResourceAttribute(converted, 0, k, v, /*replace=*/true);
  for (const auto& [k, v] : extra) flat::addResourceAttribute(converted, 0, k, v, /*replace=*/true);
  Batch batch(std::move(converted));
  if (batch.empty()) return Status::ok();  // a recording without samples
  return next_->consume(std::move(batch));
}

void RecordingReceiver::shutdown(Deadline deadline) {
  if (server_) server_->stop();
  if (watcher_) watcher_->stop();
  // Recordings already accepted finish decoding and reach the pipeline before it shuts down.
  pending_.drain(deadline);
}

}  // namespace proflow::receiverhelper
