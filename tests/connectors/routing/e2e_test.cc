// A two-tenant gateway: a real proflow routes by the resource attribute tenant.id to a pipeline per
// tenant, each exporting to its own OTLP sink (port 0). Nothing of one tenant reaches the other's
// sink under concurrent load; and when one tenant's backend stalls, that tenant's clients get 429
// from its full exporter queue (through the connector, unchanged) while every request of the other
// tenant is accepted.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tests/brokers/counting_sink.h"
#include "tests/support/daemon.h"
#include "tests/support/profile_builder.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using testing::waitFor;

class TwoTenantGateway : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(acme_.start());
    ASSERT_TRUE(ecorp_.start());
    const std::string config = R"(
receivers:
  otlp: { protocols: { http: { endpoint: "127.0.0.1:)" + std::to_string(http_) + R"(" } } }
exporters:
  otlp/acme:
    endpoint: 127.0.0.1:)" + std::to_string(acme_.port()) + R"(
    tls: { insecure: true }
    timeout: 60s
    sending_queue: { num_consumers: 1, queue_size: 2 }
  otlp/ecorp:
    endpoint: 127.0.0.1:)" + std::to_string(ecorp_.port()) + R"(
    tls: { insecure: true }
    timeout: 60s
    sending_queue: { num_consumers: 2, queue_size: 1000 }
connectors:
  routing:
    table:
      - condition: attributes["tenant.id"] == "acme"
        pipelines: [profiles/acme]
      - statement: route() where attributes["tenant.id"] == "ecorp"
        pipelines: [profiles/ecorp]
service:
  shutdown_timeout: 2s
  telemetry: { metrics: { address: "127.0.0.1:)" + std::to_string(metrics_) + R"(" } }
  pipelines:
    profiles/in: { receivers: [otlp], exporters: [routing] }
    profiles/acme: { receivers: [routing], exporters: [otlp/acme] }
    profiles/ecorp: { receivers: [routing], exporters: [otlp/ecorp] }
)";
    daemon_ = std::make_unique<testing::Daemon>(std::vector<std::string>{"--config", dir_.write("gw.yaml", config)},
                                                dir_.file("gw.log"));
    ASSERT_TRUE(daemon_->waitHealthy(metrics_)) << daemon_->log();
  }

  // One request of one tenant: its resource has service.name = tenant.id = `tenant`.
  int post(const std::string& tenant, int seed) {
    auto req = testing::makeRequest(tenant, {testing::makeProfile(3, seed)});
    auto* kv = req.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
    kv->set_key("tenant.id");
    kv->mutable_value()->set_string_value(tenant);
    const std::string body = req.SerializeAsString();
    return testing::rawPost(http_, "/v1development/profiles", {{"Content-Type", "application/x-protobuf"}}, body)
        .status;
  }

  testing::TempDir dir_;
  testing::CountingSink acme_{0}, ecorp_{0};
  int http_ = testing::freePort();
  int metrics_ = testing::freePort();
  std::unique_ptr<testing::Daemon> daemon_;
};

TEST_F(TwoTenantGateway, NothingOfOneTenantReachesTheOthersExporterUnderLoad) {
  constexpr int kThreads = 4, kPerThread = 50;
  std::atomic<int> accepted{0}, refused{0};
  std::vector<std::thread> clients;
  for (int t = 0; t < kThreads; ++t)
    clients.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) (post((i + t) % 2 ? "acme" : "ecorp", i) == 200 ? accepted : refused)++;
    });
  for (auto& c : clients) c.join();
  // acme's queue is small: some acme requests may be refused under load, never lost; ecorp's is not.
  const int total = kThreads * kPerThread;
  EXPECT_EQ(accepted + refused, total);
  ASSERT_TRUE(waitFor([&] {
    const auto a = acme_.arrivals(), e = ecorp_.arrivals();
    const int arrived = (a.count("acme") ? a.at("acme") : 0) + (e.count("ecorp") ? e.at("ecorp") : 0);
    return arrived == accepted;
  })) << daemon_->log();
  const auto a = acme_.arrivals(), e = ecorp_.arrivals();
  EXPECT_EQ(a.size(), 1u);  // only "acme"
  EXPECT_EQ(e.size(), 1u);  // only "ecorp"
  EXPECT_EQ(e.at("ecorp"), total / 2);
  EXPECT_EQ(daemon_->terminate(), 0) << daemon_->log();
}

TEST_F(TwoTenantGateway, ARefusingTenantDoesNotHoldUpTheOther) {
  acme_.hold("acme");  // acme's backend stalls: its exporter's one sender waits, its queue fills
  auto refusedWithin = [&](int tries) {
    for (int i = 0; i < tries; ++i)
      if (post("acme", i) == 429) return true;
    return false;
  };
  ASSERT_TRUE(refusedWithin(20)) << "acme's full queue never refused" << daemon_->log();
  // Once the sender holds a request, nothing leaves acme's queue: full from here on.
  ASSERT_TRUE(waitFor([&] { return acme_.held() >= 1; })) << daemon_->log();
  ASSERT_TRUE(refusedWithin(5)) << daemon_->log();

  // While acme is refused, every ecorp request is accepted and delivered.
  for (int i = 0; i < 30; ++i) ASSERT_EQ(post("ecorp", i), 200) << i;
  EXPECT_EQ(post("acme", 99), 429);  // acme still refused: the two ran side by side
  ASSERT_TRUE(waitFor([&] { return ecorp_.arrivals()["ecorp"] == 30; })) << daemon_->log();
  EXPECT_EQ(ecorp_.arrivals().count("acme"), 0u);

  std::string metrics;
  ASSERT_EQ(testing::httpGet(metrics_, "/metrics", &metrics), 200);
  EXPECT_NE(metrics.find("proflow_connector_routed_resources_total{connector=\"routing\",route=\"1\"} 30"),
            std::string::npos)
      << metrics;
  acme_.hold("");
  EXPECT_EQ(daemon_->terminate(), 0) << daemon_->log();
}

}  // namespace
}  // namespace proflow
