#include "core/net/grpc_channel.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/channel_arguments.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace proflow::net {

std::string readFileOrEmpty(const std::string& path) {
  if (path.empty()) return {};
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::shared_ptr<grpc::Channel> makeGrpcChannel(const std::string& endpoint, const TlsClientConfig& tls,
                                               const GrpcChannelOptions& options, std::string* target_out,
                                               bool* insecure_out) {
  std::string target = endpoint;
  bool insecure = tls.insecure;
  if (target.rfind("http://", 0) == 0) {
    target.erase(0, 7);
    insecure = true;
  } else if (target.rfind("https://", 0) == 0) {
    target.erase(0, 8);
    insecure = false;
  }
  std::shared_ptr<grpc::ChannelCredentials> creds;
  if (insecure) {
    creds = grpc::InsecureChannelCredentials();
  } else {
    grpc::SslCredentialsOptions opts;
    opts.pem_root_certs = readFileOrEmpty(tls.ca_file);
    opts.pem_cert_chain = readFileOrEmpty(tls.cert_file);
    opts.pem_private_key = readFileOrEmpty(tls.key_file);
    creds = grpc::SslCredentials(opts);
  }
  grpc::ChannelArguments args;
  if (!tls.server_name_override.empty()) args.SetSslTargetNameOverride(tls.server_name_override);
  args.SetMaxSendMessageSize(static_cast<int>(std::min<uint64_t>(options.max_send_bytes, INT32_MAX)));
  args.SetMaxReceiveMessageSize(options.max_receive_bytes);
  if (options.gzip) args.SetCompressionAlgorithm(GRPC_COMPRESS_GZIP);
  if (target_out) *target_out = target;
  if (insecure_out) *insecure_out = insecure;
  return grpc::CreateCustomChannel(target, creds, args);
}

void validateGrpcClient(config::ValidationContext& ctx, const std::string& compression,
                        const std::map<std::string, std::string>& headers, const TlsClientConfig& tls) {
  if (compression != "gzip" && compression != "none")
    ctx.error("compression", "unknown compression '" + compression + "'; valid: gzip, none");
  for (const auto& [k, v] : headers)
    for (char c : k)
      if (std::isupper(static_cast<unsigned char>(c)) || c == ' ') {
        ctx.error("headers", "gRPC metadata key '" + k + "' must be lowercase without spaces");
        break;
      }
  auto tls_ctx = ctx.nested("tls");
  tls.validate(tls_ctx);
}

void prepareCall(grpc::ClientContext& ctx, std::chrono::steady_clock::time_point deadline,
                 const std::map<std::string, std::string>& headers) {
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::duration_cast<std::chrono::system_clock::duration>(
                                                          deadline - std::chrono::steady_clock::now()));
  for (const auto& [k, v] : headers) ctx.AddMetadata(k, v);
}

}  // namespace proflow::net
