// Parca's upload API, `parca.debuginfo.v1alpha1.DebuginfoService`, with the gRPC upload strategy
// (the bytes arrive over the Upload stream; no signed URLs), so parca-agent and parca-debuginfo
// upload to the store unchanged. Only GNU build ids are accepted: the store checks each file's
// NT_GNU_BUILD_ID note against the id named in the request. With an authenticator, a call to a
// method the API does not have is answered UNAUTHENTICATED before UNIMPLEMENTED.
#pragma once

#include <memory>
#include <string>

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>

#include "core/auth/grpc_auth.h"
#include "extensions/symbolstore/symbol_store.h"

namespace proflow::extensions::symbolstore {

class GrpcApi {
 public:
  GrpcApi(SymbolStore& store, const auth::ServerAuthenticator* authenticator, std::shared_ptr<spdlog::logger> logger);
  ~GrpcApi();

  Status start(const std::string& endpoint, std::shared_ptr<grpc::ServerCredentials> credentials);
  int port() const { return port_; }
  void shutdown(Deadline deadline);

 private:
  class Service;
  std::unique_ptr<Service> service_;
  SymbolStore& store_;
  const auth::ServerAuthenticator* authenticator_;
  std::unique_ptr<auth::UnknownMethods> unknown_methods_;  // with an authenticator only
  std::unique_ptr<grpc::Server> server_;
  std::shared_ptr<spdlog::logger> logger_;
  int port_ = 0;
};

}  // namespace proflow::extensions::symbolstore
