// The loadbalancing exporter in a real pipeline: an agent service (OTLP receiver -> loadbalancing)
// in front of two gateway services (OTLP receiver -> file), over real gRPC sockets.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <set>

#include "tests/support/request_merger.h"
#include "exporters/load_balancing/hash_ring.h"
#include "exporters/load_balancing/loadbalancing_exporter.h"
#include "exporters/load_balancing/resolver.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/otlp_files.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"
#include "tests/support/stand_ins.h"
#include "tests/support/flat_request.h"


namespace proflow {
namespace {

namespace collector = ::opentelemetry::proto::collector::profiles::v1development;
using exporters::loadbalancing::HashRing;

std::string gatewayYaml(int port, const std::string& out) {
  return "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:" + std::to_string(port) + " } } } }\n" +
         "exporters: { file: { path: " + out + ", format: otlp_proto } }\n" +
         "service:\n  telemetry: { metrics: { address: \"127.0.0.1:0\" } }\n"
         "  pipelines: { profiles: { receivers: [otlp], exporters: [file] } }\n";
}

grpc::Status exportTo(int port, const otlp::Request& request) {
  auto ch = grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials());
  grpc::ClientContext ctx;
  ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  otlp::Response response;
  return collector::ProfilesService::NewStub(ch)->Export(&ctx, request, &response);
}

// One request carrying two services (two resources), like a batch from a node agent.
otlp::Request twoServices(int a, int b) {
  otlp::Request r = testing::makeRequest("svc-" + std::to_string(a), {testing::makeProfile(3, a)});
  otlp::Request other = testing::makeRequest("svc-" + std::to_string(b), {testing::makeProfile(2, b)});
  RequestMerger(&r).append(other);
  return r;
}

TEST(LoadBalancingExporter, EveryServiceLandsWholeOnTheGatewayTheRingPicks) {
  testing::TempDir dir;
  const int gw1 = testing::freePort(), gw2 = testing::freePort(), agent = testing::freePort();
  auto g1 = testing::startService(gatewayYaml(gw1, dir.file("gw1.bin")));
  auto g2 = testing::startService(gatewayYaml(gw2, dir.file("gw2.bin")));
  ASSERT_TRUE(g1 && g2);
  const std::string e1 = "127.0.0.1:" + std::to_string(gw1), e2 = "127.0.0.1:" + std::to_string(gw2);
  auto a = testing::startService(
      "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:" + std::to_string(agent) + " } } } }\n"
      "exporters:\n  loadbalancing:\n    routing_key: service\n"
      "    resolver: { static: { hostnames: [" + e1 + ", " + e2 + "] } }\n"
      "    protocol: { otlp: { tls: { insecure: true }, timeout: 5s, sending_queue: { num_consumers: 2 } } }\n"
      "service:\n  shutdown_timeout: 10s\n  telemetry: { metrics: { address: \"127.0.0.1:0\" } }\n"
      "  pipelines: { profiles: { receivers: [otlp], exporters: [loadbalancing] } }\n");
  ASSERT_TRUE(a);
  for (int i = 0; i < 10; ++i) {
    grpc::Status s = exportTo(agent, twoServices(i, (i + 5) % 10));
    ASSERT_TRUE(s.ok()) << s.error_message();
  }
  a->shutdown();  // drains every backend's queue
  g1->shutdown();
  g2->shutdown();

  HashRing ring({e1, e2});
  std::map<std::string, std::map<std::string, int>> seen;  // service -> gateway -> profiles
  for (const auto& [endpoint, file] : {std::pair{e1, dir.file("gw1.bin")}, std::pair{e2, dir.file("gw2.bin")}}) {
    for (const auto& r : testing::readOtlpProtoFile(file))
      for (int i = 0; i < r.resource_profiles_size(); ++i)
        for (const auto& sp : r.resource_profiles(i).scope_profiles())
          seen[testing::serviceName(r, i)][endpoint] += sp.profiles_size();
  }
  ASSERT_EQ(seen.size(), 10u);
  std::set<std::string> used, expected_used;
  for (const auto& [service, by_gateway] : seen) {
    ASSERT_EQ(by_gateway.size(), 1u) << service << " was split over gateways";
    EXPECT_EQ(by_gateway.begin()->first, ring.backendFor(service)) << service;
    EXPECT_EQ(by_gateway.begin()->second, 2) << service;  // in two requests, one profile each
    used.insert(by_gateway.begin()->first);
    expected_used.insert(ring.backendFor(service));
  }
  EXPECT_EQ(used, expected_used);
}

using ::proflow::testing::NullHost;

// What the DNS resolver does each interval, driven directly: a backend joins, then one leaves.
TEST(LoadBalancingExporter, BackendsJoiningAndLeavingMoveOnlyTheirKeysAndLoseNothing) {
  testing::TempDir dir;
  const int p1 = testing::freePort(), p2 = testing::freePort();
  auto g1 = testing::startService(gatewayYaml(p1, dir.file("gw1.bin")));
  auto g2 = testing::startService(gatewayYaml(p2, dir.file("gw2.bin")));
  ASSERT_TRUE(g1 && g2);
  const std::string e1 = "127.0.0.1:" + std::to_string(p1), e2 = "127.0.0.1:" + std::to_string(p2);
  exporters::loadbalancing::LoadBalancingExporterConfig cfg;
  cfg.resolver.static_list = exporters::loadbalancing::StaticResolverConfig{{e1}};
  cfg.protocol.otlp.tls.insecure = true;
  telemetry::MetricsRegistry metrics;
  telemetry::ComponentTelemetry tel(metrics, ComponentKind::kExporter, "loadbalancing");
  CreateSettings settings{ComponentId{"loadbalancing", ""}, ComponentKind::kExporter, spdlog::default_logger(), &tel,
                          nullptr};
  exporters::loadbalancing::LoadBalancingExporter lb(settings, cfg);
  constexpr int kServices = 32;
  NullHost host;
  ASSERT_TRUE(lb.start(host).isOk());
  auto send = [&](int round) {
    for (int i = 0; i < kServices; ++i) {
      Status s = lb.consume(::proflow::testing::batchOf(testing::makeRequest("svc-" + std::to_string(i), {testing::makeProfile(1, round)})));
      ASSERT_TRUE(s.isOk()) << s.toString();
    }
  };
  send(0);  // all on gw1
  EXPECT_EQ(lb.backendFor("svc-3"), e1);
  ASSERT_TRUE(lb.setBackends({e2, e1}).isOk());
  send(1);  // split as the two-backend ring says
  ASSERT_TRUE(lb.setBackends({e2}).isOk());  // gw1 leaves: drained, then stopped
  send(2);  // all on gw2
  lb.shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(10));
  g1->shutdown();
  g2->shutdown();

  HashRing both({e1, e2});
  std::map<std::string, int> on1, on2;  // service -> profiles
  for (const auto& r : testing::readOtlpProtoFile(dir.file("gw1.bin")))
    for (int i = 0; i < r.resource_profiles_size(); ++i) ++on1[testing::serviceName(r, i)];
  for (const auto& r : testing::readOtlpProtoFile(dir.file("gw2.bin")))
    for (int i = 0; i < r.resource_profiles_size(); ++i) ++on2[testing::serviceName(r, i)];
  int moved = 0;
  for (int i = 0; i < kServices; ++i) {
    const std::string svc = "svc-" + std::to_string(i);
    const bool second_round_on_gw2 = both.backendFor(svc) == e2;
    moved += second_round_on_gw2;
    EXPECT_EQ(on1[svc], second_round_on_gw2 ? 1 : 2) << svc;  // round 0, and round 1 if it stayed
    EXPECT_EQ(on2[svc], second_round_on_gw2 ? 2 : 1) << svc;  // round 2, and round 1 if it moved
  }
  EXPECT_GT(moved, 0);  // with 32 keys, both outcomes occur (all on one side: p = 2^-31)
  EXPECT_LT(moved, kServices);
}

TEST(LoadBalancingExporter, ConfigErrorsAreReportedTogether) {
  std::string errors = testing::configErrors(
      "receivers: { otlp: { protocols: { grpc: {} } } }\n"
      "exporters:\n  loadbalancing:\n    routing_key: traceID\n"
      "    resolver: { static: { hostnames: [] }, dns: { hostname: gw } }\n"
      "    protocol: { otlp: { endpoint: x:1, compression: brotli } }\n"
      "service: { pipelines: { profiles: { receivers: [otlp], exporters: [loadbalancing] } } }\n");
  for (const char* expected : {"routing_key", "exactly one resolver", "resolver.static.hostnames",
                               "protocol.otlp.endpoint", "protocol.otlp.compression"})
    EXPECT_NE(errors.find(expected), std::string::npos) << expected << "\n" << errors;
}

TEST(LoadBalancingResolver, DnsNameGivesEveryAddressWithThePort) {
  std::vector<std::string> backends;
  ASSERT_TRUE(exporters::loadbalancing::resolveBackends("localhost", 4317, &backends).isOk());
  EXPECT_NE(std::find(backends.begin(), backends.end(), "127.0.0.1:4317"), backends.end());
  Status bad = exporters::loadbalancing::resolveBackends("no-such-host.invalid", 4317, &backends);
  EXPECT_EQ(bad.code(), StatusCode::kUnavailable);
  EXPECT_NE(bad.message().find("no-such-host.invalid"), std::string::npos) << bad.message();
}

}  // namespace
}  // namespace proflow
