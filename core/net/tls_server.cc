#include "core/net/tls_server.h"

#include <openssl/ssl.h>
#include <grpcpp/security/server_credentials.h>

#include <fstream>
#include <sstream>

namespace proflow::net {
namespace ssl = boost::asio::ssl;

namespace {

Status readPem(const std::string& path, const char* what, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::invalid(std::string("tls: cannot read ") + what + " '" + path + "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return Status::ok();
}

}  // namespace

Status makeServerTlsContext(const TlsServerConfig& config, std::shared_ptr<ssl::context>* out) {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
  SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_compression);
  boost::system::error_code ec;
  ctx->use_certificate_chain_file(config.cert_file, ec);
  if (ec) return Status::invalid("tls: cannot load cert_file '" + config.cert_file + "': " + ec.message());
  ctx->use_private_key_file(config.key_file, ssl::context::pem, ec);
  if (ec) return Status::invalid("tls: cannot load key_file '" + config.key_file + "': " + ec.message());
  if (SSL_CTX_check_private_key(ctx->native_handle()) != 1)
    return Status::invalid("tls: key_file '" + config.key_file + "' does not match cert_file '" + config.cert_file + "'");
  if (!config.client_ca_file.empty()) {
    ctx->load_verify_file(config.client_ca_file, ec);
    if (ec) return Status::invalid("tls: cannot load client_ca_file '" + config.client_ca_file + "': " + ec.message());
    ctx->set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert);
  }
  *out = std::move(ctx);
  return Status::ok();
}

Status makeGrpcServerCredentials(const TlsServerConfig& config, std::shared_ptr<grpc::ServerCredentials>* out) {
  // Loading through OpenSSL first gives the same clear errors as the HTTP side (gRPC only logs them).
  std::shared_ptr<ssl::context> probe;
  if (Status s = makeServerTlsContext(config, &probe); !s.isOk()) return s;
  grpc::SslServerCredentialsOptions::PemKeyCertPair pair;
  if (Status s = readPem(config.key_file, "key_file", &pair.private_key); !s.isOk()) return s;
  if (Status s = readPem(config.cert_file, "cert_file", &pair.cert_chain); !s.isOk()) return s;
  grpc::SslServerCredentialsOptions options(GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE);
  if (!config.client_ca_file.empty()) {
    options.client_certificate_request = GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY;
    if (Status s = readPem(config.client_ca_file, "client_ca_file", &options.pem_root_certs); !s.isOk()) return s;
  }
  options.pem_key_cert_pairs.push_back(std::move(pair));
  *out = grpc::SslServerCredentials(options);
  return Status::ok();
}

}  // namespace proflow::net
