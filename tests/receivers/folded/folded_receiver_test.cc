// The folded receiver in a real pipeline: POST /v1/folded over a real socket into the file exporter.
#include <gtest/gtest.h>

#include "core/compression/compression.h"
#include "tests/support/dictionary_builder.h"
#include "core/net/http_client.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/otlp_files.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;

// What flamegraph tools write: root first, count last; the same stack twice is summed.
const char* kFolded =
    "main;server.run;handler.checkout;db.query 30\n"
    "main;server.run;handler.checkout;json.encode 12\n"
    "main;gc.worker 5\n"
    "\n"
    "main;server.run;handler.checkout;db.query 8\n";

class FoldedReceiverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    port_ = testing::freePort();
    service_ = testing::startService(
        "receivers:\n  folded:\n    endpoint: 127.0.0.1:" + std::to_string(port_) +
        "\n    attributes: { service.name: from-config, team: payments }\n"
        "    sample_type: cpu\n    sample_unit: nanoseconds\n    period: 10000000\n"
        "exporters: { file: { path: " + dir_.file("out.bin") + ", format: otlp_proto } }\n"
        "service:\n  telemetry: { metrics: { address: \"127.0.0.1:0\" } }\n"
        "  pipelines: { profiles: { receivers: [folded], exporters: [file] } }\n");
    ASSERT_TRUE(service_);
  }
  net::HttpResult post(const std::string& query, const std::string& body, net::HttpHeaders headers = {}) {
    return client_.request("POST", "http://127.0.0.1:" + std::to_string(port_) + "/v1/folded" + query, headers, body, 10s);
  }
  // Every sample of the one written profile: frames leaf first -> value.
  std::map<std::vector<std::string>, int64_t> written(std::string* service = nullptr, std::string* type = nullptr) {
    service_->shutdown();
    auto requests = testing::readOtlpProtoFile(dir_.file("out.bin"));
    EXPECT_EQ(requests.size(), 1u);
    std::map<std::vector<std::string>, int64_t> out;
    if (requests.empty()) return out;
    const auto& r = requests[0];
    if (service) *service = testing::serviceName(r, 0);
    const auto& p = r.resource_profiles(0).scope_profiles(0).profiles(0);
    if (type) *type = std::string(dictString(r.dictionary(), p.sample_type().type_strindex()));
    for (const auto& s : p.samples()) out[testing::stackFrames(r.dictionary(), s.stack_index())] += s.values(0);
    return out;
  }

  testing::TempDir dir_;
  int port_ = 0;
  std::unique_ptr<Service> service_;
  net::HttpClient client_{net::HttpClientOptions{}};
};

TEST_F(FoldedReceiverTest, StacksArriveLeafFirstWithCountsScaledByThePeriod) {
  net::HttpResult r = post("?service.name=checkout", kFolded);
  ASSERT_TRUE(r.status.isOk()) << r.status.toString();
  EXPECT_EQ(r.http_status, 200) << r.body;
  std::string service, type;
  auto samples = written(&service, &type);
  EXPECT_EQ(service, "checkout");  // the request's attribute wins over the config's
  EXPECT_EQ(type, "cpu");
  const int64_t ms10 = 10'000'000;
  EXPECT_EQ(samples, (std::map<std::vector<std::string>, int64_t>{
                         {{"db.query", "handler.checkout", "server.run", "main"}, 38 * ms10},
                         {{"json.encode", "handler.checkout", "server.run", "main"}, 12 * ms10},
                         {{"gc.worker", "main"}, 5 * ms10}}));
}

TEST_F(FoldedReceiverTest, GzipBodyAndPerRequestSampleType) {
  std::string gz;
  ASSERT_TRUE(compression::compress(compression::Codec::kGzip, kFolded, gz).isOk());
  net::HttpResult r = post("?sample_type=alloc_objects&sample_unit=count&period=0", gz);
  ASSERT_TRUE(r.status.isOk()) << r.status.toString();
  EXPECT_EQ(r.http_status, 200) << r.body;
  std::string service, type;
  auto samples = written(&service, &type);
  EXPECT_EQ(service, "from-config");
  EXPECT_EQ(type, "alloc_objects");
  EXPECT_EQ((samples[{"gc.worker", "main"}]), 5);  // counts as sent: period 0
}

TEST_F(FoldedReceiverTest, BadLinesAreRefusedWithTheirNumberAndTheServerKeepsServing) {
  net::HttpResult bad = post("", "main;ok 3\nmain;broken\n");
  ASSERT_TRUE(bad.status.isOk());
  EXPECT_EQ(bad.http_status, 400);
  EXPECT_NE(bad.body.find("line 2"), std::string::npos) << bad.body;
  net::HttpResult bad_period = post("?period=-5", kFolded);
  EXPECT_EQ(bad_period.http_status, 400);
  EXPECT_NE(bad_period.body.find("period"), std::string::npos) << bad_period.body;
  EXPECT_EQ(post("", kFolded).http_status, 200);
  EXPECT_EQ(written().size(), 3u);
  EXPECT_EQ(service_->metrics().value("proflow_receiver_refused_batches_total", {{"receiver", "folded"}}), 2);
}

// Query parameters become resource attributes or the sample type, OTLP strings that must be UTF-8.
TEST_F(FoldedReceiverTest, QueryParametersThatAreNotUtf8Are400NamingTheParameter) {
  net::HttpResult bad_value = post("?service.name=%FF%FE", kFolded);
  EXPECT_EQ(bad_value.http_status, 400);
  EXPECT_NE(bad_value.body.find("'service.name' is not valid UTF-8"), std::string::npos) << bad_value.body;
  net::HttpResult bad_type = post("?sample_type=cpu%E2%82", kFolded);
  EXPECT_EQ(bad_type.http_status, 400);
  EXPECT_NE(bad_type.body.find("'sample_type' is not valid UTF-8"), std::string::npos) << bad_type.body;
  std::string service;
  EXPECT_EQ(post("?service.name=caf%C3%A9", kFolded).http_status, 200);
  EXPECT_EQ(written(&service).size(), 3u);
  EXPECT_EQ(service, "caf\xC3\xA9");
  EXPECT_EQ(service_->metrics().value("proflow_receiver_refused_batches_total", {{"receiver", "folded"}}), 2);
}

TEST(FoldedReceiverConfig, ErrorsAreListed) {
  std::string errors = testing::configErrors(
      "receivers: { folded: { endpoint: 'nope', sample_type: '', period: -1 } }\n"
      "exporters: { debug: {} }\n"
      "service: { pipelines: { profiles: { receivers: [folded], exporters: [debug] } } }\n");
  for (const char* expected : {"folded.endpoint", "folded.sample_type", "folded.period"})
    EXPECT_NE(errors.find(expected), std::string::npos) << expected << "\n" << errors;
}

}  // namespace
}  // namespace proflow
