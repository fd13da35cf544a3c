// What one OTLP/HTTP request may make the receiver hold, beyond its body: an OTLP/JSON document is
// refused as its decoding passes the receiver's bounds, and a transform's edits are charged to the
// request's in-flight claim. Each refusal is the request's own answer; the next request is served.
#include <gtest/gtest.h>

#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/profile_builder.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

class OtlpRequestBounds : public ::testing::Test {
 protected:
  std::unique_ptr<Service> start(const std::string& http_extra, const std::string& processors = "",
                                 const std::string& receiver_extra = "") {
    port_ = testing::freePort();
    const std::string y = R"(
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:)" + std::to_string(port_) + "\n" + http_extra + receiver_extra + processors + R"(
exporters:
  file: { path: )" + dir_.file("out.jsonl") + R"( }
service:
  shutdown_timeout: 1s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles: { receivers: [otlp], )" + (processors.empty() ? "" : "processors: [transform], ") +
                          "exporters: [file] }\n";
    return testing::startService(y);
  }
  testing::RawResponse post(const std::string& body, const std::string& type) {
    return testing::rawPost(port_, "/v1development/profiles", {{"Content-Type", type}}, body);
  }
  // A small valid request is served after a refusal (once the refused request's claim is let go,
  // which may come just after its answer: until then the receiver may answer 429).
  bool servesAfter() {
    const std::string body = testing::makeRequest("after", {testing::makeProfile(2)}).SerializeAsString();
    return testing::waitFor([&] { return post(body, "application/x-protobuf").status == 200; });
  }

  testing::TempDir dir_;
  int port_ = 0;
};

TEST_F(OtlpRequestBounds, AJsonDocumentOfEmptyMessagesIsRefusedAsItIsRead) {
  auto service = start("");
  ASSERT_TRUE(service);
  std::string json = R"({"resourceProfiles":[{"scopeProfiles":[{"profiles":[)";
  for (int i = 0; i < 500'000; ++i) json += i ? ",{}" : "{}";
  json += "]}]}]}";
  const auto r = post(json, "application/json");
  EXPECT_EQ(r.status, 413) << r.body;
  EXPECT_NE(r.body.find("bytes of memory per byte"), std::string::npos) << r.body;
  EXPECT_TRUE(servesAfter());
}

TEST_F(OtlpRequestBounds, AJsonDocumentDecodingPastTheBodyLimitIsRefused) {
  auto service = start("        max_request_body_size: 1MiB\n");
  ASSERT_TRUE(service);
  // One-digit sample values: 8 bytes each per 2 bytes of JSON, past 4 x 1 MiB once decoded.
  std::string json = R"({"resourceProfiles":[{"scopeProfiles":[{"profiles":[{"samples":[{"stackIndex":1,"values":[)";
  for (int i = 0; i < 500'000; ++i) json += i ? ",0" : "0";
  json += "]}]}]}]}]}";
  ASSERT_LT(json.size(), 1u << 20);
  const auto r = post(json, "application/json");
  EXPECT_EQ(r.status, 413) << r.body;
  EXPECT_NE(r.body.find("4 x max_request_body_size"), std::string::npos) << r.body;
  EXPECT_TRUE(servesAfter());
}

// Each sample appends a 2 KiB attribute to a resource attribute: the request grows ~90 MiB in all
// (each rewrite of the resource's attributes copies the longer value), past the receiver's 16 MiB.
TEST_F(OtlpRequestBounds, TransformEditsAreChargedToTheRequestAndRefusedPastTheBudget) {
  auto service = start("        max_request_body_size: 8MiB\n", R"(
processors:
  transform:
    profile_statements:
      - context: sample
        statements:
          - set(resource.attributes["grow"], Concat([resource.attributes["grow"], resource.attributes["big"]], ""))
)",
                       "    max_in_flight_bytes: 16MiB\n");
  ASSERT_TRUE(service);
  otlp::Request req = testing::makeRequest("editor", {testing::makeProfile(300)});
  auto* res = req.mutable_resource_profiles(0)->mutable_resource();
  auto* big = res->add_attributes();
  big->set_key("big");
  big->mutable_value()->set_string_value(std::string(2048, 'x'));
  auto* grow = res->add_attributes();
  grow->set_key("grow");
  grow->mutable_value()->set_string_value("");
  const auto r = post(req.SerializeAsString(), "application/x-protobuf");
  EXPECT_EQ(r.status, 413) << r.body;
  EXPECT_NE(r.body.find("transform"), std::string::npos) << r.body;
  EXPECT_TRUE(servesAfter());
}

}  // namespace
}  // namespace proflow
