#include "extensions/symbolstore/symbol_store_extension.h"

#include <spdlog/logger.h>

#include "core/auth/server_auth.h"
#include "core/net/in_flight_budget.h"
#include "core/net/request_origin.h"
#include "core/net/tls_server.h"
#include "extensions/symbolstore/http_api.h"

namespace proflow::extensions::symbolstore {

SymbolStoreExtension::SymbolStoreExtension(const CreateSettings& settings, SymbolStoreConfig config)
    : settings_(settings), config_(std::move(config)), store_(settings_, config_) {}

SymbolStoreExtension::~SymbolStoreExtension() { shutdown(std::chrono::steady_clock::now()); }

Status SymbolStoreExtension::start(Host& host) {
  if (Status s = store_.open(); !s.isOk()) return s;
  FileStore::Stats st = store_.files().stats();
  settings_.logger->info("symbol store {}: {} files, {} bytes (quota {})", config_.directory, st.files, st.bytes,
                         config_.quota_bytes.str());

  const auth::ServerAuthenticator* authenticator = nullptr;
  if (Status s = auth::findServerAuthenticator(host, config_.auth, &authenticator); !s.isOk())
    return Status(s.code(), "symbolstore: " + s.message());

  net::HttpServerOptions opts;
  opts.endpoint = config_.endpoint;
  // The server refuses a body over the cap with 413 as soon as it knows (Content-Length, or while
  // reading a chunked body), before the handler sees it.
  opts.max_request_body_bytes = config_.max_upload_size.bytes;
  opts.max_wire_body_bytes = config_.max_upload_size.bytes;
  opts.decode_executor = settings_.runtime->workers().get_executor();
  // Uploads are held in memory until written to disk, downloads until sent: together bounded.
  opts.in_flight = std::make_shared<net::InFlightBudget>(config_.inFlightLimit());
  if (config_.tls) {
    if (Status s = net::makeServerTlsContext(*config_.tls, &opts.tls); !s.isOk())
      return Status(s.code(), "symbolstore: " + s.message());
  }
  auth::protectHttpServer(authenticator, &opts);
  opts.screen = net::browserRequestScreen(config_.endpoint);
  if (opts.authenticate && !config_.auth_downloads) {
    opts.authenticate = [check = std::move(opts.authenticate)](const net::HttpRequest& head, net::AuthDone done) {
      if (head.method == "GET") return done(Status::ok());
      check(head, std::move(done));
    };
  }
  http_ = std::make_unique<net::HttpServer>(settings_.runtime->io(), opts, settings_.logger, settings_.telemetry);
  addHttpRoutes(*http_, store_, *settings_.runtime, opts.in_flight);
  if (Status s = http_->start(); !s.isOk()) return Status(s.code(), "symbolstore: " + s.message());
  settings_.logger->info("symbol store HTTP (uploads, debuginfod) listening on {} (port {})", config_.endpoint,
                         http_->port());

  if (!config_.grpc_endpoint.empty()) {
    std::shared_ptr<grpc::ServerCredentials> credentials = grpc::InsecureServerCredentials();
    if (config_.tls) {
      if (Status s = net::makeGrpcServerCredentials(*config_.tls, &credentials); !s.isOk())
        return Status(s.code(), "symbolstore gRPC: " + s.message());
    }
    grpc_ = std::make_unique<GrpcApi>(store_, authenticator, settings_.logger);
    if (Status s = grpc_->start(config_.grpc_endpoint, credentials); !s.isOk()) return s;
  }
  return Status::ok();
}

void SymbolStoreExtension::shutdown(Deadline deadline) {
  if (grpc_) grpc_->shutdown(deadline);
  if (http_) http_->stop();
}

std::optional<std::string> SymbolStoreExtension::findSymbolFile(std::string_view build_id, Artifact artifact) {
  return store_.files().find(std::string(build_id), artifact);
}

}  // namespace proflow::extensions::symbolstore
