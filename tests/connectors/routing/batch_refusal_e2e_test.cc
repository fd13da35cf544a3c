// A real proflow with a batch processor in front of a routing connector (error_mode: propagate):
// one tenant's requests make the route condition fail. The merged request holding them is refused,
// yet every profile the other tenant was answered 200 for reaches its sink.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "core/flat/flat_batch.h"
#include "core/formats/otlp_json/otlp_json.h"
#include "tests/support/daemon.h"
#include "tests/support/profile_builder.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using testing::waitFor;

// Profiles in a file exporter's output (one ProfilesData in OTLP/JSON per line).
uint64_t profilesIn(const std::string& path) {
  std::ifstream in(path);
  uint64_t n = 0;
  for (std::string line; std::getline(in, line);) {
    flat::Batch b;
    if (otlp_json::decode(line, &b).status.isOk()) n += b.counts().profiles;
  }
  return n;
}

// proflow_processor_dropped_profiles_total of the batch processor in a /metrics text; -1 when absent.
double droppedByBatch(const std::string& metrics) {
  std::istringstream in(metrics);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("proflow_processor_dropped_profiles_total{", 0) == 0 &&
        line.find("processor=\"batch\"") != std::string::npos)
      return std::stod(line.substr(line.rfind(' ') + 1));
  return -1;
}

TEST(BatchBeforeRouting, ATenantWhoseConditionFailsCostsTheOtherTenantNothing) {
  testing::TempDir dir;
  const int http = testing::freePort(), metrics = testing::freePort();
  const std::string good_path = dir.file("good.jsonl");
  // Substring fails on a tenant.id shorter than 4 bytes: the "b" tenant's resources make the
  // condition fail, which error_mode: propagate (the default) turns into INVALID_ARGUMENT.
  const std::string config = R"(
receivers:
  otlp: { protocols: { http: { endpoint: "127.0.0.1:)" + std::to_string(http) + R"(" } } }
processors:
  batch: { timeout: 300ms, send_batch_size: 100000, shards: 1 }  # one request merges both tenants
exporters:
  file/good: { path: ")" + good_path + R"(" }
connectors:
  routing:
    table:
      - condition: Substring(attributes["tenant.id"], 0, 4) == "good"
        pipelines: [profiles/good]
service:
  telemetry: { metrics: { address: "127.0.0.1:)" + std::to_string(metrics) + R"(" } }
  pipelines:
    profiles/in: { receivers: [otlp], processors: [batch], exporters: [routing] }
    profiles/good: { receivers: [routing], exporters: [file/good] }
)";
  testing::Daemon daemon({"--config", dir.write("gw.yaml", config)}, dir.file("gw.log"));
  ASSERT_TRUE(daemon.waitHealthy(metrics)) << daemon.log();

  auto post = [&](const std::string& tenant, int seed) {
    auto req = testing::makeRequest(tenant + "-svc", {testing::makeProfile(3, seed), testing::makeProfile(2, seed + 1)});
    auto* kv = req.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
    kv->set_key("tenant.id");
    kv->mutable_value()->set_string_value(tenant);
    return testing::rawPost(http, "/v1development/profiles", {{"Content-Type", "application/x-protobuf"}},
                            req.SerializeAsString())
        .status;
  };
  constexpr int kRequests = 20;
  int good_accepted = 0;
  for (int i = 0; i < kRequests; ++i) {
    if (post("good", 10 * i) == 200) ++good_accepted;
    EXPECT_EQ(post("b", 10 * i), 200);  // the batch processor acknowledges before routing
  }
  ASSERT_EQ(good_accepted, kRequests);

  // Every acknowledged profile of the good tenant arrives (2 per request); the bad tenant's are
  // dropped and counted by the batch processor.
  EXPECT_TRUE(waitFor([&] { return profilesIn(good_path) >= 2u * kRequests; })) << daemon.log();
  EXPECT_EQ(profilesIn(good_path), 2u * kRequests);
  std::string text;
  EXPECT_TRUE(waitFor([&] {
    testing::httpGet(metrics, "/metrics", &text);
    return droppedByBatch(text) == 2.0 * kRequests;
  })) << text;
  EXPECT_EQ(daemon.terminate(), 0) << daemon.log();
}

}  // namespace
}  // namespace proflow
