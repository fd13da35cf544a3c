// HTTP push with real Go runtime profiles (written at test time by testdata/pprofapp), curl as the
// client: bodies gzip'd, raw, zstd or with Content-Encoding; attributes from config and query;
// malformed, oversized and refused payloads answered with the right codes while the receiver keeps serving.
#include <gtest/gtest.h>

#include "core/compression/compression.h"
#include "core/formats/pprof/pprof_codec.h"
#include "tests/receivers/pprof/go_app.h"
#include "tests/receivers/pprof/harness.h"
#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

namespace proflow::receivers::pprof {
namespace {

using testing::readFile;

struct CurlResult {
  int code = 0;
  std::string headers, body;
};

class PprofPushTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    profiles_ = new testing::TempDir();
    std::string error, out;
    const std::string bin = testing::pprofAppBinary(&error);
    ASSERT_FALSE(bin.empty()) << error;
    ASSERT_EQ(testing::runCommand({bin, "-write", profiles_->path().string()}, &out), 0) << out;
  }
  static void TearDownTestSuite() {
    delete profiles_;
    profiles_ = nullptr;
  }

  void start(PprofReceiverConfig c = {}) {
    c.endpoint = "127.0.0.1:0";
    receiver_ = h_.make(c);
    ASSERT_TRUE(receiver_->start(h_.host).isOk());
    port_ = receiver_->pushPort();
    ASSERT_GT(port_, 0);
  }
  void TearDown() override {
    if (receiver_) receiver_->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(5));
  }

  static std::string profileFile(const std::string& name) { return profiles_->file(name + ".pb.gz"); }

  CurlResult post(const std::string& file, const std::string& path_query = "/v1/pprof",
                  const std::vector<std::string>& headers = {}, const std::string& method = "POST") {
    std::vector<std::string> argv = {"curl", "-sS", "-o", dir_.file("resp.body"), "-D", dir_.file("resp.headers"),
                                     "-w", "%{http_code}", "-X", method, "--data-binary", "@" + file};
    for (const auto& h : headers) {
      argv.push_back("-H");
      argv.push_back(h);
    }
    argv.push_back("http://127.0.0.1:" + std::to_string(port_) + path_query);
    std::string out;
    EXPECT_EQ(testing::runCommand(argv, &out), 0) << "curl failed (is curl installed?): " << out;
    return {std::atoi(out.c_str()), readFile(dir_.file("resp.headers")), readFile(dir_.file("resp.body"))};
  }

  static int sampleCount(const std::string& file) {
    ::proflow::pprof::Profile p;
    EXPECT_TRUE(::proflow::pprof::decodeProfile(readFile(file), &p).isOk());
    return p.sample_size();
  }

  static testing::TempDir* profiles_;
  Harness h_;
  std::unique_ptr<PprofReceiver> receiver_;
  testing::TempDir dir_;
  int port_ = 0;
};

testing::TempDir* PprofPushTest::profiles_ = nullptr;

TEST_F(PprofPushTest, GoProfilesArriveWithConfiguredAndQueryAttributes) {
  PprofReceiverConfig c;
  c.attributes = {{"team", "payments"}, {"env", "prod"}};
  start(c);
  const std::vector<std::pair<std::string, std::vector<std::string>>> kinds = {
      {"cpu", {"samples", "cpu"}},
      {"heap", {"alloc_objects", "alloc_space", "inuse_objects", "inuse_space"}},
      {"goroutine", {"goroutine"}},
      {"mutex", {"contentions", "delay"}},
      {"block", {"contentions", "delay"}}};
  size_t expected_batches = 0;
  for (const auto& [kind, types] : kinds) {
    auto r = post(profileFile(kind), "/v1/pprof?service.name=checkout&env=dev&kind=" + kind);
    ASSERT_EQ(r.code, 200) << kind << ": " << r.body;
    ++expected_batches;
    auto batches = h_.sink->batches();
    ASSERT_EQ(batches.size(), expected_batches);
    auto seen = seenProfiles({batches.back()});
    ASSERT_EQ(seen.size(), types.size()) << kind;
    for (size_t i = 0; i < types.size(); ++i) {
      EXPECT_EQ(seen[i].type, types[i]);
      EXPECT_EQ(seen[i].samples, sampleCount(profileFile(kind))) << kind;
      EXPECT_EQ(seen[i].resource["service.name"], "checkout");
      EXPECT_EQ(seen[i].resource["env"], "dev");  // the query overrides the configured default
      EXPECT_EQ(seen[i].resource["team"], "payments");
      EXPECT_EQ(seen[i].resource["kind"], kind);
    }
  }
  EXPECT_GT(seenProfiles(h_.sink->batches())[0].samples, 0);  // the CPU profile recorded something
}

TEST_F(PprofPushTest, RawZstdAndContentEncodedBodiesAreAccepted) {
  start();
  const std::string gz = readFile(profileFile("heap"));
  std::string raw, zstd, gz_of_raw;
  ASSERT_TRUE(compression::decompressAuto(gz, raw, {}).isOk());
  ASSERT_TRUE(compression::compress(compression::Codec::kZstd, raw, zstd).isOk());
  ASSERT_TRUE(compression::compress(compression::Codec::kGzip, raw, gz_of_raw).isOk());
  EXPECT_EQ(post(dir_.write("raw.pb", raw)).code, 200);
  EXPECT_EQ(post(dir_.write("heap.pb.zst", zstd)).code, 200);
  // Content-Encoding undone by the server, then the raw pprof.
  EXPECT_EQ(post(dir_.write("raw.gz", gz_of_raw), "/v1/pprof", {"Content-Encoding: gzip"}).code, 200);
  // Content-Encoding over an already gzip'd pprof (both layers).
  std::string double_gz;
  ASSERT_TRUE(compression::compress(compression::Codec::kGzip, gz, double_gz).isOk());
  EXPECT_EQ(post(dir_.write("double.gz", double_gz), "/v1/pprof", {"Content-Encoding: gzip"}).code, 200);
  const auto seen = seenProfiles(h_.sink->batches());
  ASSERT_EQ(seen.size(), 16u);
  for (const auto& s : seen) EXPECT_EQ(s.samples, sampleCount(profileFile("heap")));
}

TEST_F(PprofPushTest, MalformedBodiesGet400WithTheDecoderMessageAndServingContinues) {
  start();
  const std::string gz = readFile(profileFile("heap"));
  std::string raw;
  ASSERT_TRUE(compression::decompressAuto(gz, raw, {}).isOk());
  auto garbage = post(dir_.write("garbage", std::string(300, '\xff')));
  EXPECT_EQ(garbage.code, 400);
  EXPECT_NE(garbage.body.find("pprof"), std::string::npos) << garbage.body;
  auto truncated = post(dir_.write("trunc.gz", gz.substr(0, gz.size() / 2)));
  EXPECT_EQ(truncated.code, 400);
  EXPECT_NE(truncated.body.find("gzip"), std::string::npos) << truncated.body;
  // Valid protobuf, broken structure: a sample pointing at a location that does not exist.
  ::proflow::pprof::Profile p;
  ASSERT_TRUE(::proflow::pprof::parseProfile(raw, &p).isOk());
  p.mutable_sample(0)->set_location_id(0, 999999);
  auto dangling = post(dir_.write("dangling.pb", p.SerializeAsString()));
  EXPECT_EQ(dangling.code, 400);
  EXPECT_NE(dangling.body.find("999999"), std::string::npos) << dangling.body;
  EXPECT_EQ(post(dir_.write("empty", "")).code, 400);

  EXPECT_EQ(post(profileFile("heap")).code, 200);
  EXPECT_EQ(h_.sink->batches().size(), 1u);
  EXPECT_EQ(h_.metric("proflow_receiver_refused_batches_total"), 4);
  EXPECT_EQ(h_.metric("proflow_receiver_received_batches_total"), 4);  // the good one is counted by the graph edge

  EXPECT_EQ(post(profileFile("heap"), "/v1/pprof", {}, "GET").code, 405);
  EXPECT_EQ(post(profileFile("heap"), "/v1/other").code, 404);
}

TEST_F(PprofPushTest, OversizedBodiesGet413) {
  PprofReceiverConfig c;
  c.max_request_body_size = config::ByteSize(64 << 10);
  start(c);
  // On the wire: over the limit.
  EXPECT_EQ(post(dir_.write("big", std::string(200 << 10, 'x'))).code, 413);
  // A small gzip that inflates past the limit (a bomb): refused by the pprof decoder's cap.
  std::string bomb;
  ASSERT_TRUE(compression::compress(compression::Codec::kGzip, std::string(8 << 20, '\0'), bomb).isOk());
  ASSERT_LT(bomb.size(), 64u << 10);
  auto r = post(dir_.write("bomb.gz", bomb));
  EXPECT_EQ(r.code, 413) << r.body;
  // The same through Content-Encoding: refused by the server's cap.
  EXPECT_EQ(post(dir_.write("bomb2.gz", bomb), "/v1/pprof", {"Content-Encoding: gzip"}).code, 413);
  EXPECT_EQ(post(profileFile("goroutine")).code, 200);
  EXPECT_EQ(h_.sink->batches().size(), 1u);
}

TEST_F(PprofPushTest, PipelineRefusalsMapTo429WithRetryAfterOr400) {
  start();
  h_.sink->refuseWith(Status::exhausted("queue full").withRetryAfter(std::chrono::seconds(7)));
  auto r = post(profileFile("heap"));
  EXPECT_EQ(r.code, 429);
  EXPECT_NE(r.headers.find("Retry-After: 7"), std::string::npos) << r.headers;
  h_.sink->refuseWith(Status::unavailable("exporter down"));
  r = post(profileFile("heap"));
  EXPECT_EQ(r.code, 429);
  EXPECT_NE(r.headers.find("Retry-After: 1"), std::string::npos) << r.headers;
  h_.sink->refuseWith(Status::invalid("not for us"));
  r = post(profileFile("heap"));
  EXPECT_EQ(r.code, 400);
  EXPECT_NE(r.body.find("not for us"), std::string::npos);
  h_.sink->refuseWith(Status::ok());
  EXPECT_EQ(post(profileFile("heap")).code, 200);
}

}  // namespace
}  // namespace proflow::receivers::pprof
