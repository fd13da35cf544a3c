// The `symbolstore` extension: owns the store, its HTTP server (uploads + debuginfod) and its
// optional gRPC server (Parca's DebuginfoService), and offers the store to the symbolize processor
// in the same process as a SymbolSource.
#pragma once

#include <memory>

#include "core/component/factory.h"
#include "core/net/http_server.h"
#include "core/component/symbol_source.h"
#include "extensions/symbolstore/config.h"
#include "extensions/symbolstore/grpc_api.h"
#include "extensions/symbolstore/symbol_store.h"

namespace proflow::extensions::symbolstore {

class SymbolStoreExtension final : public Extension, public SymbolSource {
 public:
  SymbolStoreExtension(const CreateSettings& settings, SymbolStoreConfig config);
  ~SymbolStoreExtension() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;

  // Local files only: the symbolize processor has its own debuginfod settings for the rest.
  std::optional<std::string> findSymbolFile(std::string_view build_id, Artifact artifact) override;

  uint16_t httpPort() const { return http_ ? http_->port() : 0; }
  int grpcPort() const { return grpc_ ? grpc_->port() : 0; }

 private:
  CreateSettings settings_;
  SymbolStoreConfig config_;
  SymbolStore store_;
  std::unique_ptr<net::HttpServer> http_;
  std::unique_ptr<GrpcApi> grpc_;
};

}  // namespace proflow::extensions::symbolstore
