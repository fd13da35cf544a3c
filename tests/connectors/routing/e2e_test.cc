// A two-tenant gateway: a real proflow routes by the resource attribute tenant.id to a pipeline per
// tenant, each exporting to its own OTLP sink (port 0). Nothing of one tenant reaches the other's
// sink under concurrent load; and when one tenant's backend stalls, that tenant's clients get 429
// from its full exporter queue (through the connector, unchanged) while every request of the other
// tenant, sent at the same time, is accepted and delivered.
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

TEST_F(TwoTenantGateway, UnderLoadARefusedTenantDoesNotStopTheOther) {
  acme_.hold("acme");  // acme's backend stalls for the whole test: its queue fills, its clients get 429
  std::atomic<bool> ecorp_done{false};
  std::atomic<int> acme_ok{0}, acme_refused{0}, acme_other{0}, ecorp_ok{0}, ecorp_failed{0};
  std::vector<std::thread> clients;
  // acme's clients keep sending (and being refused) for as long as ecorp's do.
  for (int t = 0; t < 2; ++t)
    clients.emplace_back([&, t] {
      for (int i = 0; !ecorp_done; ++i) {
        const int status = post("acme", 1000 * t + i);
        (status == 200 ? acme_ok : status == 429 ? acme_refused : acme_other)++;
      }
    });
  constexpr int kEcorpThreads = 2, kEcorpPerThread = 40;
  std::vector<std::thread> ecorp;
  for (int t = 0; t < kEcorpThreads; ++t)
    ecorp.emplace_back([&, t] {
      for (int i = 0; i < kEcorpPerThread; ++i) (post("ecorp", 100 * t + i) == 200 ? ecorp_ok : ecorp_failed)++;
    });
  for (auto& t : ecorp) t.join();
  ecorp_done = true;
  for (auto& c : clients) c.join();

  // Every ecorp request was accepted and delivered while acme's were refused beside them.
  EXPECT_EQ(ecorp_ok, kEcorpThreads * kEcorpPerThread);
  EXPECT_EQ(ecorp_failed, 0);
  EXPECT_GT(acme_refused, 0);
  EXPECT_EQ(acme_other, 0);  // refused with 429, never an error or a dropped connection
  ASSERT_TRUE(waitFor([&] { return ecorp_.arrivals()["ecorp"] == kEcorpThreads * kEcorpPerThread; }))
      << daemon_->log();
  EXPECT_EQ(ecorp_.arrivals().count("acme"), 0u);
  EXPECT_EQ(acme_.arrivals().count("ecorp"), 0u);
  EXPECT_LE(acme_ok, 4);  // what acme's queue (2) and its one sender took before the refusals began
  acme_.hold("");
  EXPECT_EQ(daemon_->terminate(), 0) << daemon_->log();
}

}  // namespace
}  // namespace proflow
