// The tenant header chain of a multi-tenant gateway, end to end over real sockets: agents send with
// X-Scope-OrgID (HTTP, as written; gRPC, lower case), the OTLP receiver keeps it (include_metadata),
// the resource processor copies it into the data (from_context), a routing connector routes on it
// (request context), the batch processor keeps tenants apart (metadata_keys) and headers_setter
// sends each batch's tenant to a backend that records what it got. No tenant's data goes out under
// another's header, and every profile sent arrives.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "core/net/http_server.h"
#include "tests/core/net/http_test_util.h"
#include "tests/e2e/otlp_client.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/profile_builder.h"
#include "tests/support/raw_http.h"

namespace proflow {
namespace {

struct Delivery {
  std::string tenant;  // x-scope-orgid as received ("" when absent)
  std::string route;   // x-route, set statically by each exporter
  std::vector<std::string> services;
  std::vector<std::string> tenant_attributes;  // each resource's `tenant` attribute
  int profiles = 0;
};

std::string resourceAttribute(const otlp::Request& r, int i, const std::string& key) {
  for (const auto& kv : r.resource_profiles(i).resource().attributes())
    if (kv.key() == key) return kv.value().string_value();
  return "";
}

// An OTLP/HTTP backend that records each request's tenant header and what it held.
class RecordingBackend {
 public:
  RecordingBackend() {
    server_ = std::make_unique<net::HttpServer>(io_.ioc, net::HttpServerOptions{}, nullptr);
    server_->route("POST", "/v1development/profiles", [this](net::HttpRequest&& req, net::Responder respond) {
      otlp::Request request;
      Delivery d;
      if (!request.ParseFromString(req.body)) return respond(net::HttpResponse::text(400, "not protobuf"));
      d.tenant = std::string(req.header("x-scope-orgid"));
      d.route = std::string(req.header("x-route"));
      for (int i = 0; i < request.resource_profiles_size(); ++i) {
        d.services.push_back(resourceAttribute(request, i, "service.name"));
        d.tenant_attributes.push_back(resourceAttribute(request, i, "tenant"));
        for (const auto& sp : request.resource_profiles(i).scope_profiles()) d.profiles += sp.profiles_size();
      }
      {
        std::lock_guard lock(mu_);
        deliveries_.push_back(std::move(d));
      }
      net::HttpResponse ok{200, "application/x-protobuf", "", {}, {}};
      respond(std::move(ok));
    });
    EXPECT_TRUE(server_->start().isOk());
  }
  ~RecordingBackend() {
    server_->stop();
    io_.join();
  }
  int port() const { return server_->port(); }
  std::vector<Delivery> deliveries() {
    std::lock_guard lock(mu_);
    return deliveries_;
  }

 private:
  net::testing::IoThreads io_{1};
  std::unique_ptr<net::HttpServer> server_;
  std::mutex mu_;
  std::vector<Delivery> deliveries_;
};

TEST(TenantChain, EachTenantsHeaderStaysOnEachTenantsDataToTheBackend) {
  RecordingBackend backend;
  const int http = testing::freePort(), grpc = testing::freePort();
  const std::string backend_url = "http://127.0.0.1:" + std::to_string(backend.port());
  auto service = testing::startService(R"(
extensions:
  headers_setter:
    headers:
      - key: X-Scope-OrgID
        from_context: X-Scope-OrgID
        default_value: anonymous
receivers:
  otlp:
    protocols:
      http: { endpoint: "127.0.0.1:)" + std::to_string(http) + R"(", include_metadata: true }
      grpc: { endpoint: "127.0.0.1:)" + std::to_string(grpc) + R"(", include_metadata: true }
processors:
  resource/tenant:
    attributes: [{ key: tenant, from_context: metadata.x-scope-orgid, action: upsert }]
  batch:
    metadata_keys: [X-Scope-OrgID]
    metadata_cardinality_limit: 10
    timeout: 50ms
connectors:
  routing:
    table:
      - context: request
        condition: request["X-Scope-OrgID"] == "acme"
        pipelines: [profiles/acme]
    default_pipelines: [profiles/others]
exporters:
  otlp_http/acme:
    endpoint: )" + backend_url + R"(
    headers: { X-Route: acme }
    auth: { authenticator: headers_setter }
  otlp_http/others:
    endpoint: )" + backend_url + R"(
    headers: { X-Route: others }
    auth: { authenticator: headers_setter }
service:
  extensions: [headers_setter]
  shutdown_timeout: 5s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles/in: { receivers: [otlp], processors: [resource/tenant], exporters: [routing] }
    profiles/acme: { receivers: [routing], processors: [batch], exporters: [otlp_http/acme] }
    profiles/others: { receivers: [routing], processors: [batch], exporters: [otlp_http/others] }
)");
  ASSERT_TRUE(service);

  // Interleaved: three tenants over two transports, and one agent that sends no tenant.
  std::map<std::string, int> sent;  // tenant -> profiles
  for (int round = 0; round < 6; ++round) {
    for (const std::string tenant : {"acme", "ecorp", "initech"}) {
      const otlp::Request request =
          testing::makeRequest(tenant + "-svc" + std::to_string(round % 2), {testing::makeProfile(3, round)});
      if (round % 2 == 0) {
        const auto r = testing::rawPost(http, "/v1development/profiles",
                                        {{"Content-Type", "application/x-protobuf"}, {"X-Scope-OrgID", tenant}},
                                        request.SerializeAsString());
        ASSERT_EQ(r.status, 200) << r.body;
      } else {
        ASSERT_TRUE(testing::exportTo(grpc, request, std::chrono::seconds(10), GRPC_COMPRESS_NONE,
                                      {{"x-scope-orgid", tenant}})
                        .ok());
      }
      sent[tenant] += 1;
    }
  }
  ASSERT_TRUE(testing::exportTo(grpc, testing::makeRequest("nobody-svc", {testing::makeProfile(2, 9)})).ok());
  sent["anonymous"] += 1;
  ASSERT_TRUE(service->shutdown());  // drains the batches

  std::map<std::string, int> got;
  const auto deliveries = backend.deliveries();
  ASSERT_FALSE(deliveries.empty());
  for (const Delivery& d : deliveries) {
    ASSERT_FALSE(d.tenant.empty()) << "every request carries a tenant header";
    EXPECT_EQ(d.route, d.tenant == "acme" ? "acme" : "others") << d.tenant;
    for (size_t i = 0; i < d.services.size(); ++i) {
      const std::string owner = d.tenant == "anonymous" ? "nobody" : d.tenant;
      EXPECT_EQ(d.services[i].rfind(owner + "-", 0), 0u)
          << "data of " << d.services[i] << " went out under tenant " << d.tenant;
      // from_context: the tenant as the agent sent it, or nothing for the agent that sent none.
      EXPECT_EQ(d.tenant_attributes[i], d.tenant == "anonymous" ? "" : d.tenant) << d.services[i];
    }
    got[d.tenant] += d.profiles;
  }
  EXPECT_EQ(got, sent) << "every profile arrives, under its own tenant";
}

TEST(TenantChain, MixedCaseStaticHeadersReachAGrpcBackend) {
  // gRPC refuses metadata keys with capitals; the exporter sends them lower case.
  const int gateway = testing::freePort(), backend = testing::freePort();
  auto sink = testing::startService(R"(
receivers:
  otlp: { protocols: { grpc: { endpoint: "127.0.0.1:)" + std::to_string(backend) + R"(", include_metadata: true } } }
connectors:
  routing:
    table:
      - context: request
        condition: request["X-Scope-OrgID"] != "acme"
        pipelines: [profiles/wrong]
    default_pipelines: [profiles/right]
exporters: { file/right: { path: ")" + ::testing::TempDir() + R"(/right.jsonl" }, file/wrong: { path: ")" +
                                    ::testing::TempDir() + R"(/wrong.jsonl" } }
service:
  shutdown_timeout: 2s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles/in: { receivers: [otlp], exporters: [routing] }
    profiles/right: { receivers: [routing], exporters: [file/right] }
    profiles/wrong: { receivers: [routing], exporters: [file/wrong] }
)");
  ASSERT_TRUE(sink);
  auto agent = testing::startService(R"(
receivers:
  otlp: { protocols: { grpc: { endpoint: "127.0.0.1:)" + std::to_string(gateway) + R"(" } } }
exporters:
  otlp_grpc:
    endpoint: "127.0.0.1:)" + std::to_string(backend) + R"("
    tls: { insecure: true }
    headers: { X-Scope-OrgID: acme }
service:
  shutdown_timeout: 5s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines: { profiles: { receivers: [otlp], exporters: [otlp_grpc] } }
)");
  ASSERT_TRUE(agent);
  ASSERT_TRUE(testing::exportTo(gateway, testing::makeRequest("acme-svc", {testing::makeProfile(2, 1)})).ok());
  ASSERT_TRUE(agent->shutdown());
  ASSERT_TRUE(sink->shutdown());
  EXPECT_EQ(sink->metrics().value("proflow_exporter_sent_profiles_total", {{"exporter", "file/right"}}), 1);
  EXPECT_EQ(sink->metrics().value("proflow_exporter_sent_profiles_total", {{"exporter", "file/wrong"}}), 0);
}

}  // namespace
}  // namespace proflow

namespace proflow {
namespace {

// The HTTP push receivers that take include_metadata (pyroscope, folded, datadog) keep the tenant
// of a Pyroscope SDK's upload as the OTLP receiver does.
TEST(TenantChain, APyroscopeUploadKeepsItsTenantToTheBackend) {
  RecordingBackend backend;
  const int pyroscope = testing::freePort();
  auto service = testing::startService(R"(
extensions:
  headers_setter: { headers: [ { key: X-Scope-OrgID, from_context: X-Scope-OrgID } ] }
receivers:
  pyroscope: { endpoint: "127.0.0.1:)" + std::to_string(pyroscope) + R"(", include_metadata: true }
exporters:
  otlp_http:
    endpoint: http://127.0.0.1:)" + std::to_string(backend.port()) + R"(
    headers: { X-Route: others }
    auth: { authenticator: headers_setter }
service:
  extensions: [headers_setter]
  shutdown_timeout: 5s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines: { profiles: { receivers: [pyroscope], exporters: [otlp_http] } }
)");
  ASSERT_TRUE(service);
  for (const std::string tenant : {"acme", "ecorp"}) {
    const auto r = testing::rawPost(pyroscope, "/ingest?name=" + tenant + "-app&format=folded&sampleRate=100",
                                    {{"X-Scope-OrgID", tenant}}, "main;work 3\nmain;idle 1\n");
    ASSERT_EQ(r.status, 200) << r.body;
  }
  ASSERT_TRUE(service->shutdown());
  std::set<std::string> tenants;
  for (const Delivery& d : backend.deliveries()) {
    tenants.insert(d.tenant);
    for (const auto& s : d.services) EXPECT_EQ(s.rfind(d.tenant + "-", 0), 0u) << s << " under " << d.tenant;
  }
  EXPECT_EQ(tenants, (std::set<std::string>{"acme", "ecorp"}));
}

}  // namespace
}  // namespace proflow
