#include "exporters/pyroscope/pyroscope_sender.h"

#include <spdlog/logger.h>

#include "core/auth/auth_config.h"
#include "core/auth/client_auth.h"

namespace proflow::exporters::pyroscope {
namespace {

constexpr const char* kPushPath = "/push.v1.PusherService/Push";
constexpr size_t kMaxErrorBody = 64u << 10;  // error bodies are read up to this and quoted in part

std::string base64(std::string_view in) {
  static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    for (int s : {18, 12, 6, 0}) out.push_back(table[(v >> s) & 63]);
  }
  if (i + 1 == in.size()) {
    const uint32_t v = uint8_t(in[i]) << 16;
    out += {table[(v >> 18) & 63], table[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == in.size()) {
    const uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8);
    out += {table[(v >> 18) & 63], table[(v >> 12) & 63], table[(v >> 6) & 63], '='};
  }
  return out;
}

}  // namespace

std::string basicAuthorization(const std::string& user, const std::string& password) {
  return "Basic " + base64(user + ":" + password);
}

PyroscopeSender::PyroscopeSender(const CreateSettings& settings, PyroscopeExporterConfig config)
    : settings_(settings), config_(std::move(config)) {
  base_url_ = config_.endpoint;
  while (!base_url_.empty() && base_url_.back() == '/') base_url_.pop_back();
  for (const auto& [k, v] : config_.headers) headers_.emplace(k, v);
  if (!config_.tenant_id.empty()) headers_.emplace("X-Scope-OrgID", config_.tenant_id);
  if (config_.auth.basic)
    headers_.emplace("Authorization", basicAuthorization(config_.auth.basic->username, config_.auth.basic->password));
  else if (!config_.auth.bearer_token.empty())
    headers_.emplace("Authorization", "Bearer " + config_.auth.bearer_token);
}

PyroscopeSender::~PyroscopeSender() = default;

Status PyroscopeSender::start(Host& host) {
  std::optional<auth::AuthConfig> named;
  if (!config_.auth.authenticator.empty()) named = auth::AuthConfig{config_.auth.authenticator};
  if (Status s = auth::findClientAuthenticator(host, named, &client_auth_); !s.isOk()) return s;
  net::HttpClientOptions opts;
  opts.tls = config_.tls.clientOptions();
  opts.max_response_bytes = kMaxErrorBody;
  client_ = std::make_unique<net::HttpClient>(opts);
  if (Status s = client_->tlsStatus(); !s.isOk()) return Status(s.code(), "pyroscope exporter TLS: " + s.message());
  settings_.logger->info("Pyroscope exporter sending to {} ({} API)", base_url_, config_.api);
  return Status::ok();
}

Status PyroscopeSender::post(const std::string& target, const std::string& content_type, const std::string& body,
                             Deadline deadline, const ClientMetadata* context) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  if (left.count() <= 0) return Status(StatusCode::kDeadlineExceeded, "pyroscope: no time left for the request");
  net::HttpHeaders headers = headers_;
  headers.emplace("Content-Type", content_type);
  if (target == kPushPath) headers.emplace("Connect-Protocol-Version", "1");
  auth::addClientHeaders(client_auth_, context, &headers);
  net::HttpResult r = client_->request("POST", base_url_ + target, headers, body, left);
  if (r.status.isOk()) settings_.telemetry->bytesOut(body.size());
  Status s = r.toStatus();
  if (!s.isOk()) return Status(s.code(), "pyroscope " + config_.api + ": " + s.message()).withRetryAfter(s.retryAfter());
  return s;
}

Status PyroscopeSender::push(const Batch& batch, Deadline deadline) {
  SeriesOptions options;
  options.external_labels = config_.external_labels;
  std::vector<Series> series;
  if (Status s = buildSeries(batch.data(), options, &series); !s.isOk())
    return Status::invalid("pyroscope: cannot convert the batch to pprof: " + s.message());
  if (series.empty()) return Status::ok();
  const ClientMetadata* context = batch.metadata().get();
  if (config_.api == "push")
    return post(kPushPath, "application/proto", encodePushRequest(series).SerializeAsString(), deadline, context);
  // /ingest takes one profile per request. A retry after a partial failure resends the whole batch
  // (at-least-once, like every retry).
  for (const auto& s : series)
    for (const auto& p : s.profiles)
      if (Status st = post(ingestTarget(s, p), "application/octet-stream", p.raw_profile, deadline, context); !st.isOk())
        return st;
  return Status::ok();
}

}  // namespace proflow::exporters::pyroscope
