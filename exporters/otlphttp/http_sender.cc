#include "exporters/otlphttp/http_sender.h"

#include "core/auth/client_auth.h"
#include "core/compression/compression.h"
#include "core/flat/flat_encode.h"
#include "core/formats/otlp_json/otlp_json.h"
#include "core/model/otlp_profiles_version.h"

namespace proflow::exporters::otlphttp {

Status encodeRequest(const OtlpHttpExporterConfig& config, const Batch& batch, EncodedRequest* out) {
  // Protobuf straight from the flat batch; JSON (a cold path) through the protobuf request.
  std::string raw = config.encoding == "json" ? otlp_json::toOtlpJson(batch.request()) : flat::encode(batch.data());
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
    : settings_(settings), config_(std::move(config)), url_(config_.url()) {}

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
  if (Status s = encodeRequest(config_, batch, &enc); !s.isOk()) return s;
  auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  if (timeout.count() <= 0) return Status(StatusCode::kDeadlineExceeded, "no time left for the attempt");
  auth::addClientHeaders(client_auth_, &enc.headers);
  net::HttpResult r = client_->request("POST", url_, enc.headers, enc.body, timeout);
  Status s = r.toStatus();
  if (!s.isOk()) return s;
  settings_.telemetry->bytesOut(enc.body.size());
  // A partial success is final (OTLP forbids retrying it): count and log what the peer rejected.
  otlp::Response response;
  bool parsed = config_.encoding == "json" ? otlp_json::parseOtlpJson(r.body, &response).isOk()
                                          : response.ParseFromString(r.body);
  if (parsed && response.partial_success().rejected_profiles() > 0) {
    const auto& p = response.partial_success();
    settings_.telemetry->recordItems(telemetry::Event::kFailed, static_cast<uint64_t>(p.rejected_profiles()), 0);
    settings_.logger->warn("peer rejected {} profiles: {}", p.rejected_profiles(), p.error_message());
  }
  return Status::ok();
}

}  // namespace proflow::exporters::otlphttp
