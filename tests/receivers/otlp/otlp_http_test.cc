// OTLP over HTTP (protobuf, JSON, gzip) into the file exporter, with curl as the client.
#include <google/protobuf/util/message_differencer.h>

#include "google/rpc/status.pb.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/hostile_otlp.h"
#include "tests/support/otlp_files.h"
#include "tests/support/profile_builder.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using google::protobuf::util::MessageDifferencer;

struct CurlResult {
  int http_status = 0;
  std::string headers;
  std::string body;
};

class OtlpHttpTest : public ::testing::Test {
 protected:
  std::unique_ptr<Service> start(const std::string& http_extra = "", const std::string& exporter = "") {
    port_ = testing::freePort();
    std::string y = R"(
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:)" + std::to_string(port_) + "\n" + http_extra + R"(
exporters:
  file:
    path: )" + dir_.file("out.bin") + R"(
    format: otlp_proto
)" + exporter + R"(
service:
  shutdown_timeout: 1s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles: { receivers: [otlp], exporters: [)" + (exporter.empty() ? "file" : "otlp/dead") + "] }\n";
    return testing::startService(y);
  }

  // POSTs the file at `body_path` with extra headers.
  CurlResult post(const std::string& body_path, const std::vector<std::string>& headers) {
    std::vector<std::string> argv = {"curl", "-sS", "-o", dir_.file("resp.body"), "-D", dir_.file("resp.headers"),
                                     "-w", "%{http_code}", "-X", "POST", "--data-binary", "@" + body_path};
    for (const auto& h : headers) {
      argv.push_back("-H");
      argv.push_back(h);
    }
    argv.push_back("http://127.0.0.1:" + std::to_string(port_) + "/v1development/profiles");
    std::string out;
    int rc = testing::runCommand(argv, &out);
    EXPECT_EQ(rc, 0) << "curl failed (is curl installed?): " << out;
    return {std::atoi(out.c_str()), testing::readFile(dir_.file("resp.headers")), testing::readFile(dir_.file("resp.body"))};
  }

  testing::TempDir dir_;
  int port_ = 0;
};

otlp::Request sampleRequest() {
  testing::ProfileSpec p;
  p.samples = {{{"leaf", "main"}, 7}};
  auto r = testing::makeRequest("web", {p});
  auto* link = r.mutable_dictionary()->add_link_table();
  link->set_trace_id(std::string("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10", 16));
  link->set_span_id(std::string("\xaa\xbb\xcc\xdd\xee\xff\x00\x11", 8));
  r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->mutable_samples(0)->set_link_index(1);
  r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->set_profile_id(std::string(16, '\x42'));
  return r;
}

TEST_F(OtlpHttpTest, ProtobufJsonAndGzipBodiesArriveUnchanged) {
  auto service = start();
  ASSERT_TRUE(service);
  const auto request = sampleRequest();
  auto proto_path = dir_.write("req.pb", request.SerializeAsString());
  auto r = post(proto_path, {"Content-Type: application/x-protobuf"});
  EXPECT_EQ(r.http_status, 200) << r.body;
  EXPECT_NE(r.headers.find("application/x-protobuf"), std::string::npos) << r.headers;

  // JSON written by hand in OTLP's spelling: hex ids, lowerCamelCase, 64-bit values as strings.
  const std::string json = R"({"resourceProfiles":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"web"}}]},
    "scopeProfiles":[{"profiles":[{"sampleType":{"typeStrindex":1,"unitStrindex":2},"profileId":"42424242424242424242424242424242",
    "samples":[{"stackIndex":1,"linkIndex":1,"values":["7"]}]}]}]}],
   "dictionary":{"stringTable":["","cpu","nanoseconds","leaf"],"functionTable":[{},{"nameStrindex":3}],
    "locationTable":[{},{"lines":[{"functionIndex":1}]}],"stackTable":[{},{"locationIndices":[1]}],
    "linkTable":[{},{"traceId":"0102030405060708090a0b0c0d0e0f10","spanId":"aabbccddeeff0011"}],
    "mappingTable":[{}],"attributeTable":[{}],"unknownFieldIsIgnored":true}})";
  r = post(dir_.write("req.json", json), {"Content-Type: application/json"});
  EXPECT_EQ(r.http_status, 200) << r.body;
  EXPECT_NE(r.headers.find("application/json"), std::string::npos) << r.headers;

  std::string out;
  ASSERT_EQ(testing::runCommand({"gzip", "-k", "-f", proto_path}, &out), 0) << out;
  r = post(proto_path + ".gz", {"Content-Type: application/x-protobuf", "Content-Encoding: gzip"});
  EXPECT_EQ(r.http_status, 200) << r.body;
  service->shutdown();

  auto written = testing::readOtlpProtoFile(dir_.file("out.bin"));
  ASSERT_EQ(written.size(), 3u);
  EXPECT_TRUE(MessageDifferencer::Equals(written[0], request));
  EXPECT_TRUE(MessageDifferencer::Equals(written[2], request));
  const auto& from_json = written[1];
  EXPECT_EQ(from_json.dictionary().link_table(1).trace_id(), request.dictionary().link_table(1).trace_id());
  EXPECT_EQ(from_json.dictionary().link_table(1).span_id(), request.dictionary().link_table(1).span_id());
  const auto& p = from_json.resource_profiles(0).scope_profiles(0).profiles(0);
  EXPECT_EQ(p.profile_id(), std::string(16, '\x42'));
  EXPECT_EQ(p.samples(0).values(0), 7);
}

TEST_F(OtlpHttpTest, BodiesProtobufAcceptsAreAcceptedWhateverTheirLayout) {
  auto service = start();
  ASSERT_TRUE(service);
  const auto request = sampleRequest();
  // The request, then an unknown group (field 101 holding a varint) and the dictionary's field
  // number sent as a varint: protobuf reads both as unknown fields, so a sender built on it (or a
  // Collector on the way) gets them through.
  const std::string body = request.SerializeAsString() + std::string("\xab\x06\x08\x01\xac\x06", 6) + "\x10\x05";
  otlp::Request check;
  ASSERT_TRUE(check.ParseFromString(body));
  auto r = post(dir_.write("unusual.pb", body), {"Content-Type: application/x-protobuf"});
  EXPECT_EQ(r.http_status, 200) << r.body;
  service->shutdown();
  auto written = testing::readOtlpProtoFile(dir_.file("out.bin"));
  ASSERT_EQ(written.size(), 1u);
  EXPECT_TRUE(MessageDifferencer::Equals(written[0], request));
}

TEST_F(OtlpHttpTest, BadRequestsGetClearErrorsAndTheServerKeepsServing) {
  auto service = start("        max_request_body_size: 1MiB");
  ASSERT_TRUE(service);
  auto r = post(dir_.write("bad.pb", std::string("\x0a\xff\xff\xff\xff\x0f", 6)), {"Content-Type: application/x-protobuf"});
  EXPECT_EQ(r.http_status, 400);
  google::rpc::Status st;
  ASSERT_TRUE(st.ParseFromString(r.body)) << "error body must be a google.rpc.Status";
  EXPECT_EQ(st.code(), 3);  // INVALID_ARGUMENT
  EXPECT_NE(st.message().find("not a valid"), std::string::npos) << st.message();

  r = post(dir_.write("bad.json", "{\"resourceProfiles\": [ oops"), {"Content-Type: application/json"});
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body.find("\"message\""), std::string::npos) << r.body;

  r = post(dir_.write("x.txt", "hello"), {"Content-Type: text/plain"});
  EXPECT_EQ(r.http_status, 415);

  // 64 MiB of zeros gzip to ~64 KiB: over the 1 MiB limit once inflated.
  std::string out;
  ASSERT_EQ(testing::runCommand({"sh", "-c", "head -c 67108864 /dev/zero | gzip -1 > " + dir_.file("bomb.gz")}, &out), 0);
  r = post(dir_.file("bomb.gz"), {"Content-Type: application/x-protobuf", "Content-Encoding: gzip"});
  EXPECT_EQ(r.http_status, 413);

  r = post(dir_.write("ok.pb", sampleRequest().SerializeAsString()), {"Content-Type: application/x-protobuf"});
  EXPECT_EQ(r.http_status, 200);
}

// Media types compare without ASCII case (RFC 9110 8.3.1), and an absolute-form request target
// (RFC 9112 3.2.2, what a client configured with a proxy-style URL sends) reaches the same route.
TEST_F(OtlpHttpTest, MediaTypesIgnoreCaseAndAbsoluteTargetsAreRouted) {
  auto service = start();
  ASSERT_TRUE(service);
  auto r = post(dir_.write("ok.json", "{}"), {"Content-Type: Application/JSON; charset=utf-8"});
  EXPECT_EQ(r.http_status, 200) << r.body;
  EXPECT_NE(r.headers.find("application/json"), std::string::npos) << "answered in the request's encoding";
  r = post(dir_.write("ok.pb", sampleRequest().SerializeAsString()), {"Content-Type: APPLICATION/X-PROTOBUF"});
  EXPECT_EQ(r.http_status, 200) << r.body;
  const std::string body = sampleRequest().SerializeAsString();
  const testing::RawResponse raw =
      testing::rawPost(port_, "http://127.0.0.1:" + std::to_string(port_) + "/v1development/profiles",
                       {{"Content-Type", "application/x-protobuf"}}, body);
  EXPECT_EQ(raw.status, 200) << raw.headers << raw.body;
}

TEST_F(OtlpHttpTest, DecodingIsChargedWhatItAllocatesAndSplitFieldsCostTheirSize) {
  auto service = start("        max_request_body_size: 1MiB\n    max_in_flight_bytes: 16MiB");
  ASSERT_TRUE(service);
  const std::vector<std::string> proto = {"Content-Type: application/x-protobuf"};
  // ~448 KB of profile attribute indices alternating with samples: linear, within the budget.
  auto r = post(dir_.write("split.pb", flat::testing::interleavedProfileAttributes(74667)), proto);
  EXPECT_EQ(r.http_status, 200) << r.body;
  // One attribute whose array_value is sent in 64,000 parts, ~3 KB once gzipped.
  const std::string parts = dir_.write("parts.pb", flat::testing::repeatedArrayValue(64000));
  std::string out;
  ASSERT_EQ(testing::runCommand({"gzip", "-9", "-k", "-f", parts}, &out), 0) << out;
  r = post(parts + ".gz", {"Content-Type: application/x-protobuf", "Content-Encoding: gzip"});
  EXPECT_EQ(r.http_status, 200) << r.body;

  // 500,000 empty profiles in 1 MB: each costs its row in memory, ~50x its two bytes, far more
  // than twice the body. The claim follows the rows as they are allocated and stops at the budget.
  std::string profiles;
  for (int i = 0; i < 500000; ++i) profiles += std::string("\x12\x00", 2);  // ScopeProfiles.profiles
  auto lenField = [](char key, const std::string& payload) {
    std::string f(1, key);
    for (size_t n = payload.size(); ; n >>= 7) {
      f.push_back(static_cast<char>((n & 0x7f) | (n >= 0x80 ? 0x80 : 0)));
      if (n < 0x80) break;
    }
    return f + payload;
  };
  const std::string many = lenField('\x0a', lenField('\x12', profiles));  // resource_profiles.scope_profiles
  r = post(dir_.write("many.pb", many), proto);
  EXPECT_EQ(r.http_status, 413) << r.body;
  EXPECT_NE(r.body.find("max_in_flight_bytes"), std::string::npos) << r.body;

  // The budget is whole again: an ordinary request goes through.
  r = post(dir_.write("ok.pb", sampleRequest().SerializeAsString()), proto);
  EXPECT_EQ(r.http_status, 200) << r.body;
}

TEST_F(OtlpHttpTest, JsonDecodingIsChargedWhatItAllocates) {
  // Repetitive bodies below: let them inflate, so what stops them is the claim.
  auto service = start("        max_inflate_ratio: 100000\n    max_in_flight_bytes: 64MiB");
  ASSERT_TRUE(service);
  // 60 MB of one-digit sample values (30 million int64s: within the decode's per-byte bound, a
  // document of empty messages is refused by, see otlp_request_bounds_test.cc), a few hundred KB of gzip.
  std::string json = R"({"resourceProfiles":[{"scopeProfiles":[{"profiles":[{"samples":[{"stackIndex":1,"values":[)";
  json.reserve(60'000'200);
  for (int i = 0; i < 30'000'000; ++i) json += i ? ",0" : "0";
  json += "]}]}]}]}]}";
  const std::string path = dir_.write("dense_values.json", json);
  json = {};
  std::string out;
  ASSERT_EQ(testing::runCommand({"gzip", "-1", "-k", "-f", path}, &out), 0) << out;
  auto r = post(path + ".gz", {"Content-Type: application/json", "Content-Encoding: gzip"});
  EXPECT_EQ(r.http_status, 413) << r.body.substr(0, 300);
  EXPECT_NE(r.body.find("max_in_flight_bytes"), std::string::npos) << r.body.substr(0, 300);
  EXPECT_EQ(r.body.rfind("{\"code\":", 0), 0u) << r.body.substr(0, 300);  // a google.rpc.Status in JSON

  // The budget is whole again: an ordinary JSON request goes through.
  r = post(dir_.write("ok.json", R"({"resourceProfiles":[{"scopeProfiles":[{"profiles":[{}]}]}],"dictionary":{"stringTable":[""]}})"),
           {"Content-Type: application/json"});
  EXPECT_EQ(r.http_status, 200) << r.body;
}

TEST_F(OtlpHttpTest, FullQueueAnswers429WithRetryAfter) {
  const int dead_port = testing::freePort();
  auto service = start("", R"(
  otlp/dead:
    endpoint: 127.0.0.1:)" + std::to_string(dead_port) + R"(
    tls: { insecure: true }
    timeout: 200ms
    sending_queue: { num_consumers: 1, queue_size: 1 }
    retry_on_failure: { initial_interval: 10s, max_interval: 10s, max_elapsed_time: 0 }
)");
  ASSERT_TRUE(service);
  auto body = dir_.write("ok.pb", sampleRequest().SerializeAsString());
  int ok = 0;
  CurlResult refused;
  for (int i = 0; i < 5; ++i) {
    auto r = post(body, {"Content-Type: application/x-protobuf"});
    if (r.http_status == 200) ++ok;
    else {
      refused = r;
      break;
    }
  }
  EXPECT_GE(ok, 1);  // one queued, plus one if the sender already took the first
  EXPECT_LE(ok, 2);
  EXPECT_EQ(refused.http_status, 429);
  EXPECT_NE(refused.headers.find("Retry-After:"), std::string::npos) << refused.headers;
}

}  // namespace
}  // namespace proflow
