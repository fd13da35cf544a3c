// Server-side TLS material built from a receiver's `tls` block: an OpenSSL context for the HTTP
// server (Boost.Asio SSL) and gRPC server credentials. Built at start(), so unreadable or mismatched
// files fail the start with a message naming the file.
#pragma once

#include <grpcpp/security/server_credentials.h>

#include <boost/asio/ssl/context.hpp>
#include <memory>

#include "core/net/tls_config.h"
#include "core/util/status.h"

namespace proflow::net {

// TLS 1.2+, the certificate chain and key (checked to match), and client verification when
// client_ca_file is set.
Status makeServerTlsContext(const TlsServerConfig& config, std::shared_ptr<boost::asio::ssl::context>* out);

// gRPC's equivalent; client certificates required and verified when client_ca_file is set.
Status makeGrpcServerCredentials(const TlsServerConfig& config, std::shared_ptr<grpc::ServerCredentials>* out);

}  // namespace proflow::net
