#include "core/net/tls_config.h"

#include <filesystem>

#include "core/net/http_util.h"

namespace proflow::net {

namespace {

void checkFile(config::ValidationContext& ctx, const char* field, const std::string& path) {
  std::error_code ec;
  if (!path.empty() && !std::filesystem::is_regular_file(path, ec))
    ctx.error(field, "file '" + path + "' does not exist or is not a regular file");
}

}  // namespace

void TlsServerConfig::validate(config::ValidationContext& ctx) const {
  if (cert_file.empty()) ctx.error("cert_file", "a TLS server needs cert_file (PEM certificate)");
  if (key_file.empty()) ctx.error("key_file", "a TLS server needs key_file (PEM private key)");
  checkFile(ctx, "cert_file", cert_file);
  checkFile(ctx, "key_file", key_file);
  checkFile(ctx, "client_ca_file", client_ca_file);
}

void TlsClientConfig::validate(config::ValidationContext& ctx) const {
  auto checkFile = [&](const char* field, const std::string& path) { net::checkFile(ctx, field, path); };
  checkFile("ca_file", ca_file);
  checkFile("cert_file", cert_file);
  checkFile("key_file", key_file);
  if (cert_file.empty() != key_file.empty()) ctx.error("cert_file", "cert_file and key_file must be set together");
  if (insecure && (!ca_file.empty() || !cert_file.empty()))
    ctx.error("insecure", "insecure: true sends plain text; remove ca_file/cert_file or set insecure: false");
}

void TlsClientConfig::validateForUrl(config::ValidationContext& ctx, const std::string& url) const {
  validate(ctx);
  Url parsed;
  if (insecure && parseUrl(url, &parsed).isOk() && parsed.tls())
    ctx.error("insecure", "the endpoint " + url + " is https://: over HTTP the URL scheme decides TLS; use an "
                          "http:// endpoint for plain text (or insecure_skip_verify: true to skip verification)");
}

}  // namespace proflow::net
