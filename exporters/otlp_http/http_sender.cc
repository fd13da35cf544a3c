#include "exporters/otlp_http/http_sender.h"

#include "core/auth/client_auth.h"
#include "core/compression/compression.h"
#include "core/flat/flat_encode.h"
#include "core/formats/otlp_json/otlp_json.h"
#include "core/model/otlp_profiles_version.h"
#include "core/model/otlp_types.h"

namespace proflow::exporters::otlphttp {

Status encodeRequest(const OtlpHttpExporterConfig& config, const flat::Batch& data, EncodedRequest* out) {
  // Both encodings straight from the flat batch.
  std::string raw = config.encoding == "json" ? otlp_json::encode(data) : flat::encode(data);
  out->uncompressed_size = raw.size();
  if (raw.size() > config.max_request_size.bytes)
    return Status::tooLarge("request of " + std::to_string(raw.size()) + " bytes exceeds max_request_size " +
                            config.max_request_size.str());
  for (const auto& [k, v] : config.headers) out->headers.emplace(k, v);
  out->headers.emplace("Content-Type", config.encoding == "json" ? "application/json" : "application/x-protobuf");
  if (config.send_version_header) out->headers.emplace(kProfilesVersionHeader, kProfilesVersionText);
  if (config.compression == "none") {
    out->body = std::move(raw);
    return Status::ok();
  }
  auto codec = *compression::codecFromName(config.compression);
  if (Status s = compression::compress(codec, raw, out->body); !s.isOk()) return s;
  out->headers.emplace("Content-Encoding", config.compression);
  return Status::ok();
}

HttpSender::HttpSender(const CreateSettings& settings, OtlpHttpExporterConfig config)
    : settings_(settings), config_(std::move(config)), utf8_(settings_), url_(config_.url()) {}

Status HttpSender::start(Host& host) {
  if (Status s = auth::findClientAuthenticator(host, config_.auth, &client_auth_); !s.isOk()) return s;
  net::HttpClientOptions opts;
  opts.tls = config_.tls.clientOptions();
  client_ = std::make_unique<net::HttpClient>(opts);
  if (Status s = client_->tlsStatus(); !s.isOk()) return s;
  settings_.logger->info("exporting OTLP/HTTP ({}, {}) to {}", config_.encoding, config_.compression, url_);
  return Status::ok();
}

Status HttpSender::push(const Batch& batch, Deadline deadline) {
  EncodedRequest enc;
  flat::Batch repaired;
  if (Status s = encodeRequest(config_, utf8_.sendable(batch.data(), &repaired), &enc); !s.isOk()) return s;
  auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  if (timeout.count() <= 0) return Status(StatusCode::kDeadlineExceeded, "no time left for the attempt");
  auth::addClientHeaders(client_auth_, batch.metadata().get(), &enc.headers);
  net::HttpResult r = client_->request("POST", url_, enc.headers, enc.body, timeout);
  Status s = r.toStatus();
  if (!s.isOk()) return s;
  settings_.telemetry->bytesOut(enc.body.size());
  // A partial success is final (OTLP forbids retrying it): count and log what the peer rejected.
  int64_t rejected = 0;
  std::string message;
  bool parsed;
  if (config_.encoding == "json") {
    parsed = otlp_json::decodeResponse(r.body, &rejected, &message);
  } else {
    otlp::Response response;
    parsed = response.ParseFromString(r.body);
    rejected = response.partial_success().rejected_profiles();
    message = response.partial_success().error_message();
  }
  if (parsed && rejected > 0) {
    settings_.telemetry->recordItems(telemetry::Event::kFailed, static_cast<uint64_t>(rejected), 0);
    settings_.logger->warn("peer rejected {} profiles: {}", rejected, message);
  }
  return Status::ok();
}

}  // namespace proflow::exporters::otlphttp
