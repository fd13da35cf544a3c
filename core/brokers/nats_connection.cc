#include "core/brokers/nats_connection.h"

#include <memory>

namespace proflow::brokers {
namespace {

struct OptionsDeleter {
  void operator()(natsOptions* o) const { natsOptions_Destroy(o); }
};

int64_t millis(const config::Duration& d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d.value).count();
}

}  // namespace

void NatsConnectionDeleter::operator()(natsConnection* nc) const {
  natsConnection_Close(nc);
  natsConnection_Destroy(nc);
}

Status natsStatus(::natsStatus s, const std::string& what) {
  if (s == NATS_OK) return Status::ok();
  std::string msg = what + ": " + natsStatus_GetText(s);
  switch (s) {
    case NATS_MAX_PAYLOAD: return Status::tooLarge(msg);
    case NATS_INVALID_ARG:
    case NATS_INVALID_SUBJECT: return Status::invalid(msg);
    default: return Status::unavailable(msg);  // connection, timeout, no responders: try again later
  }
}

void NatsConnectionConfig::validate(config::ValidationContext& ctx) const {
  if (url.empty()) ctx.error("url", "required: e.g. nats://127.0.0.1:4222");
  for (size_t start = 0; start <= url.size() && !url.empty();) {
    size_t end = url.find(',', start);
    if (end == std::string::npos) end = url.size();
    const std::string one = url.substr(start, end - start);
    if (one.rfind("nats://", 0) != 0 && one.rfind("tls://", 0) != 0)
      ctx.error("url", "'" + one + "' is not a nats:// or tls:// URL");
    start = end + 1;
  }
  if (username.empty() != password.empty()) ctx.error("username", "username and password go together");
  if (!token.empty() && !username.empty()) ctx.error("token", "use either token or username/password");
  if (tls.cert_file.empty() != tls.key_file.empty()) ctx.error("tls", "cert_file and key_file go together");
  if (connect_timeout.value.count() <= 0) ctx.error("connect_timeout", "must be positive");
  if (reconnect_wait.value.count() <= 0) ctx.error("reconnect_wait", "must be positive");
}

Status connectNats(const NatsConnectionConfig& config, const std::string& name, NatsConnectionPtr* out) {
  natsOptions* raw = nullptr;
  if (::natsStatus s = natsOptions_Create(&raw); s != NATS_OK) return natsStatus(s, "NATS options");
  std::unique_ptr<natsOptions, OptionsDeleter> opts(raw);
  ::natsStatus s = natsOptions_SetURL(opts.get(), config.url.c_str());
  if (s == NATS_OK) s = natsOptions_SetName(opts.get(), name.c_str());
  if (s == NATS_OK) s = natsOptions_SetTimeout(opts.get(), millis(config.connect_timeout));
  if (s == NATS_OK) s = natsOptions_SetMaxReconnect(opts.get(), -1);  // forever
  if (s == NATS_OK) s = natsOptions_SetReconnectWait(opts.get(), millis(config.reconnect_wait));
  if (s == NATS_OK && !config.username.empty())
    s = natsOptions_SetUserInfo(opts.get(), config.username.c_str(), config.password.c_str());
  if (s == NATS_OK && !config.token.empty()) s = natsOptions_SetToken(opts.get(), config.token.c_str());
  if (s == NATS_OK && (config.tls.enabled || config.url.rfind("tls://", 0) == 0)) s = natsOptions_SetSecure(opts.get(), true);
  if (s == NATS_OK && !config.tls.ca_file.empty())
    s = natsOptions_LoadCATrustedCertificates(opts.get(), config.tls.ca_file.c_str());
  if (s == NATS_OK && !config.tls.cert_file.empty())
    s = natsOptions_LoadCertificatesChain(opts.get(), config.tls.cert_file.c_str(), config.tls.key_file.c_str());
  if (s != NATS_OK) return Status::invalid(std::string("NATS options: ") + natsStatus_GetText(s));
  natsConnection* nc = nullptr;
  // One attempt first: what a running server refuses (credentials, TLS) is reported now with its
  // reason. With retries on, cnats would retry such a refusal inside Connect forever.
  s = natsConnection_Connect(&nc, opts.get());
  if (s == NATS_OK) {
    out->reset(nc);
    return Status::ok();
  }
  if (s != NATS_NO_SERVER && s != NATS_TIMEOUT) {
    ::natsStatus last = NATS_OK;
    const char* detail = nats_GetLastError(&last);
    std::string why = "connecting to " + config.url + ": " + natsStatus_GetText(s);
    if (detail && *detail) why += std::string(" (") + detail + ")";
    if (s == NATS_CONNECTION_AUTH_FAILED || s == NATS_NOT_PERMITTED)
      return Status(StatusCode::kUnauthenticated, why + "; check username/password/token");
    return Status::invalid(why);
  }
  // Not up (yet): the connection keeps trying in the background.
  s = natsOptions_SetRetryOnFailedConnect(opts.get(), true, nullptr, nullptr);
  if (s == NATS_OK) s = natsConnection_Connect(&nc, opts.get());
  if (s != NATS_OK && s != NATS_NOT_YET_CONNECTED) return natsStatus(s, "connecting to " + config.url);
  out->reset(nc);
  return Status::ok();
}

std::string natsNameProblem(const std::string& name, bool subject) {
  if (name.empty()) return "required";
  for (char c : name) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') return "must not contain whitespace";
    if (!subject && (c == '.' || c == '*' || c == '>' || c == '/' || c == '\\'))
      return "must not contain '.', '*', '>', '/' or '\\'";
  }
  if (subject && (name.front() == '.' || name.back() == '.' || name.find("..") != std::string::npos))
    return "is not a valid subject (empty token)";
  return "";
}

}  // namespace proflow::brokers
