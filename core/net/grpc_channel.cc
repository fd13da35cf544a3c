#include "core/net/grpc_channel.h"

#include "core/model/client_metadata.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/tls_certificate_provider.h>
#include <grpcpp/security/tls_certificate_verifier.h>
#include <grpcpp/security/tls_credentials_options.h>
#include <grpcpp/support/channel_arguments.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <vector>

namespace proflow::net {

std::string readFileOrEmpty(const std::string& path) {
  if (path.empty()) return {};
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

namespace {

// Plain text when the endpoint says http://, TLS when it says https://, else as `tls.insecure` says.
bool dialsInsecure(const std::string& endpoint, bool insecure, std::string* target) {
  *target = endpoint;
  if (target->rfind("http://", 0) == 0) {
    target->erase(0, 7);
    return true;
  }
  if (target->rfind("https://", 0) == 0) {
    target->erase(0, 8);
    return false;
  }
  return insecure;
}

// insecure_skip_verify: TLS without checking the server's chain or name (gRPC's TLS credentials
// with the server check off and a verifier that accepts anything); a client certificate is still
// presented when configured.
std::shared_ptr<grpc::ChannelCredentials> unverifiedTls(const TlsClientConfig& tls) {
  namespace exp = grpc::experimental;
  exp::TlsChannelCredentialsOptions opts;
  opts.set_verify_server_certs(false);
  opts.set_check_call_host(false);
  opts.set_certificate_verifier(std::make_shared<exp::NoOpCertificateVerifier>());
  if (!tls.cert_file.empty()) {
    std::vector<exp::IdentityKeyCertPair> identity = {{readFileOrEmpty(tls.key_file), readFileOrEmpty(tls.cert_file)}};
    opts.set_certificate_provider(std::make_shared<exp::StaticDataCertificateProvider>(identity));
    opts.watch_identity_key_cert_pairs();
  }
  return exp::TlsCredentials(opts);
}

}  // namespace

std::shared_ptr<grpc::Channel> makeGrpcChannel(const std::string& endpoint, const TlsClientConfig& tls,
                                               const GrpcChannelOptions& options, std::string* target_out,
                                               bool* insecure_out) {
  std::string target;
  const bool insecure = dialsInsecure(endpoint, tls.insecure, &target);
  std::shared_ptr<grpc::ChannelCredentials> creds;
  if (insecure) {
    creds = grpc::InsecureChannelCredentials();
  } else if (tls.insecure_skip_verify) {
    creds = unverifiedTls(tls);
  } else {
    grpc::SslCredentialsOptions opts;
    opts.pem_root_certs = readFileOrEmpty(tls.ca_file);  // empty: the system's roots
    opts.pem_cert_chain = readFileOrEmpty(tls.cert_file);
    opts.pem_private_key = readFileOrEmpty(tls.key_file);
    creds = grpc::SslCredentials(opts);
  }
  grpc::ChannelArguments args;
  // The name sent as SNI and, when verifying, expected in the server certificate.
  if (!insecure && !tls.server_name_override.empty()) args.SetSslTargetNameOverride(tls.server_name_override);
  args.SetMaxSendMessageSize(static_cast<int>(std::min<uint64_t>(options.max_send_bytes, INT32_MAX)));
  args.SetMaxReceiveMessageSize(options.max_receive_bytes);
  if (options.gzip) args.SetCompressionAlgorithm(GRPC_COMPRESS_GZIP);
  if (target_out) *target_out = target;
  if (insecure_out) *insecure_out = insecure;
  return grpc::CreateCustomChannel(target, creds, args);
}

void validateGrpcClient(config::ValidationContext& ctx, const std::string& endpoint, const std::string& compression,
                        const std::map<std::string, std::string>& headers, const TlsClientConfig& tls) {
  if (compression != "gzip" && compression != "none")
    ctx.error("compression", "unknown compression '" + compression + "'; valid: gzip, none");
  // Keys in any case (sent lower case, as gRPC requires): `X-Scope-OrgID` is written as users know it.
  for (const auto& [k, v] : headers) {
    const bool valid = !k.empty() && std::all_of(k.begin(), k.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.';
    });
    if (!valid) ctx.error("headers", "'" + k + "' is not a valid gRPC metadata key (letters, digits, '-', '_', '.')");
    if (v.find_first_of("\r\n") != std::string::npos) ctx.error("headers", "the value of '" + k + "' has a line break");
  }
  auto tls_ctx = ctx.nested("tls");
  tls.validate(tls_ctx);
  // Settings the dialled channel would not use are refused rather than ignored.
  if (endpoint.rfind("https://", 0) == 0 && tls.insecure)
    tls_ctx.error("insecure", "the endpoint " + endpoint + " is https://, which means TLS; drop the scheme or use "
                              "http:// for plain text (or insecure_skip_verify: true to skip verification)");
  std::string target;
  if (dialsInsecure(endpoint, tls.insecure, &target)) {
    const char* why = endpoint.rfind("http://", 0) == 0 ? "the http:// endpoint means plain text (no TLS)"
                                                          : "insecure: true means plain text (no TLS)";
    if (tls.insecure_skip_verify) tls_ctx.error("insecure_skip_verify", std::string("has no effect: ") + why);
    if (!tls.server_name_override.empty()) tls_ctx.error("server_name_override", std::string("has no effect: ") + why);
    if (!tls.insecure && (!tls.ca_file.empty() || !tls.cert_file.empty()))
      tls_ctx.error("ca_file", std::string("ca_file/cert_file have no effect: ") + why);
  }
}

void prepareCall(grpc::ClientContext& ctx, std::chrono::steady_clock::time_point deadline,
                 const std::map<std::string, std::string>& headers) {
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::duration_cast<std::chrono::system_clock::duration>(
                                                          deadline - std::chrono::steady_clock::now()));
  // gRPC refuses metadata keys with capitals; HTTP/2 sends header names lower case anyway.
  for (const auto& [k, v] : headers) ctx.AddMetadata(lowerAscii(k), v);
}

}  // namespace proflow::net
