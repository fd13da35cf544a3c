// The pyroscope receiver over real HTTP (curl): SDK bodies, multipart, folded text, and malformed
// input answered with the right 4xx and a JSON body while the server keeps serving.
#include <fstream>
#include <atomic>
#include <thread>

#include "core/compression/compression.h"
#include "core/formats/pprof/pprof_codec.h"
#include "receivers/pyroscope/ingest_converter.h"
#include "tests/receivers/pyroscope/receiver_harness.h"
#include "tests/support/flat_request.h"

namespace proflow::receivers::pyroscope::testing {
namespace {

// The query the Node.js SDK 0.6.4 sends (format, name with tags, from/until in seconds, spy, rate).
const std::string kNodeWallQuery =
    "/ingest?format=pprof&name=node-app%7Benv%3Dstaging%2Cregion%3Deu%7D&from=1795987028&until=1795987030"
    "&spyName=nodespy&sampleRate=100";

int64_t sumValues(const pprof::Profile& p, int type) {
  int64_t sum = 0;
  for (const auto& s : p.sample()) sum += s.value(type);
  return sum;
}

int64_t sumValues(const otlp::Profile& p) {
  int64_t sum = 0;
  for (const auto& s : p.samples())
    for (int64_t v : s.values()) sum += v;
  return sum;
}

pprof::Profile readFixture(const std::string& name) {
  std::ifstream in(testdata(name), std::ios::binary);
  std::string data((std::istreambuf_iterator<char>(in)), {});
  pprof::Profile p;
  EXPECT_TRUE(pprof::decodeProfile(data, &p).isOk()) << name;
  return p;
}

void expectJsonError(const Reply& r, int status, const std::string& code, const std::string& message_part) {
  EXPECT_EQ(r.status, status) << r.body;
  EXPECT_NE(r.headers.find("application/json"), std::string::npos) << r.headers;
  EXPECT_NE(r.body.find("\"code\":\"" + code + "\""), std::string::npos) << r.body;
  EXPECT_NE(r.body.find(message_part), std::string::npos) << r.body;
}

TEST_F(ReceiverTest, NodeSdkRawPprofBodiesWithTheSdkQuery) {
  const pprof::Profile wall = readFixture("ingest_wall.pb.gz");
  Reply r = post(kNodeWallQuery, {"-H", "Content-Type: application/octet-stream", "--data-binary",
                                  "@" + testdata("ingest_wall.pb.gz")});
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "");  // SDKs treat any other answer as a failure
  auto got = batches();
  ASSERT_EQ(got.size(), 1u);
  const auto& req = ::proflow::testing::requestOf(got[0]);
  ASSERT_EQ(req.resource_profiles_size(), 1);
  const auto& rp = req.resource_profiles(0);
  EXPECT_EQ(resourceAttr(rp, "service.name"), "node-app");
  EXPECT_EQ(resourceAttr(rp, "env"), "staging");
  EXPECT_EQ(resourceAttr(rp, "region"), "eu");
  EXPECT_EQ(resourceAttr(rp, "pyroscope.spy_name"), "nodespy");
  const auto& profiles = rp.scope_profiles(0).profiles();
  ASSERT_EQ(profiles.size(), wall.sample_type_size());
  for (int i = 0; i < profiles.size(); ++i) {
    EXPECT_EQ(profiles[i].samples_size(), wall.sample_size());
    EXPECT_EQ(sumValues(profiles[i]), sumValues(wall, i));
    EXPECT_EQ(profileAttr(req, profiles[i], "pyroscope.profile.name"), "wall");
    // The SDK's own timestamps are kept (not 1970, so `from` does not replace them).
    EXPECT_EQ(profiles[i].time_unix_nano(), static_cast<uint64_t>(wall.time_nanos()));
    EXPECT_EQ(profiles[i].duration_nano(), static_cast<uint64_t>(wall.duration_nanos()));
  }

  // Heap body of the same SDK, without sampleRate, on the /pyroscope prefix.
  const pprof::Profile heap = readFixture("ingest_heap.pb.gz");
  r = post("/pyroscope/ingest?format=pprof&name=node-app&from=1795987028&until=1795987030&spyName=nodespy",
           {"-H", "Content-Type: application/octet-stream", "--data-binary", "@" + testdata("ingest_heap.pb.gz")});
  EXPECT_EQ(r.status, 200);
  got = batches();
  ASSERT_EQ(got.size(), 2u);
  const auto& hreq = ::proflow::testing::requestOf(got[1]);
  const auto& hp = hreq.resource_profiles(0).scope_profiles(0).profiles();
  ASSERT_EQ(hp.size(), heap.sample_type_size());
  EXPECT_EQ(profileAttr(hreq, hp[0], "pyroscope.profile.name"), "memory");  // objects/space
  // No duration in the SDK's heap pprof: until - from fills it.
  EXPECT_EQ(hp[0].duration_nano(), 2'000'000'000u);
}

TEST_F(ReceiverTest, PprofIsTheDefaultWhenTheBodyIsPprof) {
  Reply r = post("/ingest?name=node-app", {"--data-binary", "@" + testdata("ingest_wall.pb.gz")});
  EXPECT_EQ(r.status, 200) << r.body;
  ASSERT_EQ(batches().size(), 1u);
  EXPECT_EQ(batches()[0].counts().profiles, 2u);
}

TEST_F(ReceiverTest, MultipartWithSampleTypeConfigLikePyroscopeGo) {
  const std::string cfg = dir_.write("stc.json", R"({
    "inuse_objects": {"units": "objects", "aggregation": "average", "display-name": "live_objects"},
    "inuse_space": {"units": "lock_nanoseconds", "aggregation": "average", "cumulative": true},
    "not_in_profile": {"units": "bytes"}
  })");
  // curl -F sends multipart/form-data with filenames, like pyroscope-go; from/until in ns like pyroscope-go.
  Reply r = post("/ingest?name=shop-api%7Bpod%3Dp-1%7D&from=1795987028000000000&until=1795987038000000000"
                 "&spyName=gospy&sampleRate=100",
                 {"-F", "profile=@" + testdata("ingest_heap.pb.gz") + ";filename=profile.pprof",
                  "-F", "sample_type_config=@" + cfg + ";filename=sample_type_config.json"});
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body, "");
  auto got = batches();
  ASSERT_EQ(got.size(), 1u);
  const auto& req = ::proflow::testing::requestOf(got[0]);
  const auto& rp = req.resource_profiles(0);
  EXPECT_EQ(resourceAttr(rp, "service.name"), "shop-api");
  EXPECT_EQ(resourceAttr(rp, "pod"), "p-1");
  const auto& profiles = rp.scope_profiles(0).profiles();
  ASSERT_EQ(profiles.size(), 2);
  const auto& d = req.dictionary();
  // The Node.js heap profile's sample types are inuse_objects/count and inuse_space/bytes.
  EXPECT_EQ(dictString(d, profiles[0].sample_type().type_strindex()), "inuse_objects");
  EXPECT_EQ(dictString(d, profiles[0].sample_type().unit_strindex()), "count");  // units: objects
  EXPECT_EQ(profileAttr(req, profiles[0], "pyroscope.display_name"), "live_objects");
  EXPECT_EQ(profileAttr(req, profiles[0], "pyroscope.aggregation"), "average");
  EXPECT_EQ(profileAttr(req, profiles[0], "pyroscope.cumulative"), "");
  // units rewrite the pprof unit (a deliberately odd one here, to see it applied).
  EXPECT_EQ(dictString(d, profiles[1].sample_type().unit_strindex()), "nanoseconds");
  EXPECT_EQ(profileAttr(req, profiles[1], "pyroscope.display_name"), "");
  EXPECT_EQ(profileAttr(req, profiles[1], "pyroscope.cumulative"), "true");
  EXPECT_EQ(profileAttr(req, profiles[0], "pyroscope.profile.name"), "memory");
  EXPECT_EQ(profileAttr(req, profiles[1], "pyroscope.profile.name"), "memory");
}

TEST_F(ReceiverTest, MultipartGzipPartsAndPrevProfileRefused) {
  std::string json = R"({"inuse_space": {"aggregation": "average"}})";
  std::string gz;
  ASSERT_TRUE(compression::compress(compression::Codec::kGzip, json, gz).isOk());
  const std::string cfg = dir_.write("stc.json.gz", gz);
  Reply r = post("/ingest?name=svc", {"-F", "profile=@" + testdata("ingest_heap.pb.gz"), "-F",
                                      "sample_type_config=@" + cfg});
  EXPECT_EQ(r.status, 200) << r.body;
  ASSERT_EQ(batches().size(), 1u);
  const auto& req = ::proflow::testing::requestOf(batches()[0]);
  EXPECT_EQ(profileAttr(req, req.resource_profiles(0).scope_profiles(0).profiles(1), "pyroscope.aggregation"),
            "average");  // the gzip'd JSON part was read
  const std::string bad = dir_.write("bad.json", "[1, 2");
  r = post("/ingest?name=svc", {"-F", "profile=@" + testdata("ingest_heap.pb.gz"), "-F", "sample_type_config=@" + bad});
  expectJsonError(r, 422, "invalid_argument", "sample_type_config");
  // 60 KB of nested arrays: refused at the 9th level, not parsed on.
  const std::string deep = dir_.write("deep.json", std::string(30'000, '[') + std::string(30'000, ']'));
  r = post("/ingest?name=svc", {"-F", "profile=@" + testdata("ingest_heap.pb.gz"), "-F", "sample_type_config=@" + deep});
  expectJsonError(r, 422, "invalid_argument", "sample_type_config: invalid JSON: nesting deeper than 8 at byte 8");

  r = post("/ingest?name=svc", {"-F", "profile=@" + testdata("ingest_heap.pb.gz"), "-F",
                                "prev_profile=@" + testdata("ingest_heap.pb.gz")});
  expectJsonError(r, 422, "invalid_argument", "unsupported client version");
  r = post("/ingest?name=svc", {"-F", "other=@" + testdata("ingest_heap.pb.gz")});
  expectJsonError(r, 422, "invalid_argument", "'profile' part is required");
  EXPECT_EQ(batches().size(), 1u);
}

TEST_F(ReceiverTest, FoldedTextBecomesOneCpuProfileScaledBySampleRate) {
  const std::string body = "main;work;compute 12\nmain;work 3\n\nmain;work;compute 1\r\n";
  Reply r = post("/ingest?name=batch-job.cpu%7Bteam%3Dx%7D&from=1795987028&until=1795987038&sampleRate=100"
                 "&spyName=pyspy",
                 {"--data-binary", body});
  EXPECT_EQ(r.status, 200) << r.body;
  auto got = batches();
  ASSERT_EQ(got.size(), 1u);
  const auto& req = ::proflow::testing::requestOf(got[0]);
  const auto& rp = req.resource_profiles(0);
  EXPECT_EQ(resourceAttr(rp, "service.name"), "batch-job");  // the type suffix is not part of the service
  EXPECT_EQ(resourceAttr(rp, "team"), "x");
  ASSERT_EQ(rp.scope_profiles(0).profiles_size(), 1);
  const auto& p = rp.scope_profiles(0).profiles(0);
  const auto& d = req.dictionary();
  EXPECT_EQ(dictString(d, p.sample_type().type_strindex()), "cpu");
  EXPECT_EQ(dictString(d, p.sample_type().unit_strindex()), "nanoseconds");
  EXPECT_EQ(p.period(), 10'000'000);
  EXPECT_EQ(p.time_unix_nano(), 1'795'987'028'000'000'000u);
  EXPECT_EQ(p.duration_nano(), 10'000'000'000u);
  ASSERT_EQ(p.samples_size(), 2);  // identical stacks merged
  EXPECT_EQ(p.samples(0).values(0), 13 * 10'000'000);
  EXPECT_EQ(p.samples(1).values(0), 3 * 10'000'000);
  // Leaf first in the stack: compute, work, main.
  const auto& stack = d.stack_table(p.samples(0).stack_index());
  ASSERT_EQ(stack.location_indices_size(), 3);
  const auto& leaf = d.location_table(stack.location_indices(0));
  EXPECT_EQ(dictString(d, d.function_table(leaf.lines(0).function_index()).name_strindex()), "compute");
  EXPECT_EQ(profileAttr(req, p, "pyroscope.profile.name"), "process_cpu");
}

TEST_F(ReceiverTest, LinesFormatAndMemoryTypesWithAverageAggregation) {
  Reply r = post("/ingest?name=app.inuse_space&format=lines&aggregationType=average", {"--data-binary", "a;b\na;b\na\n"});
  EXPECT_EQ(r.status, 200) << r.body;
  auto got = batches();
  ASSERT_EQ(got.size(), 1u);
  const auto& req = ::proflow::testing::requestOf(got[0]);
  const auto& p = req.resource_profiles(0).scope_profiles(0).profiles(0);
  EXPECT_EQ(dictString(req.dictionary(), p.sample_type().type_strindex()), "inuse_space");
  ASSERT_EQ(p.samples_size(), 2);
  EXPECT_EQ(p.samples(0).values(0), 2);  // not scaled: memory is not a sampled rate
  EXPECT_EQ(profileAttr(req, p, "pyroscope.aggregation"), "average");
}

TEST_F(ReceiverTest, MalformedInputGetsJsonErrorsAndTheServerKeepsServing) {
  expectJsonError(post("/ingest?name=bad%20name", {"--data-binary", "a 1"}), 400, "invalid_argument",
                  "application name");
  expectJsonError(post("/ingest?name=app%7Bk%3Dv", {"--data-binary", "a 1"}), 400, "invalid_argument", "missing '}'");
  expectJsonError(post("/ingest", {"--data-binary", "a 1"}), 400, "invalid_argument", "'name'");
  expectJsonError(post("/ingest?name=app&from=tomorrow", {"--data-binary", "a 1"}), 400, "invalid_argument", "from");
  expectJsonError(post("/ingest?name=app&format=pprof", {"--data-binary", "this is not a profile"}), 422,
                  "invalid_argument", "pprof");
  expectJsonError(post("/ingest?name=app.cpu", {"--data-binary", "a;b;c twelve"}), 422, "invalid_argument",
                  "folded line 1");
  expectJsonError(post("/ingest?name=app.strange", {"--data-binary", "a;b 1"}), 422, "invalid_argument",
                  "unknown profile type");
  expectJsonError(post("/ingest?name=app", {"-H", "Content-Type: multipart/form-data; boundary=XX", "--data-binary",
                                            "--XX\r\nContent-Disposition: form-data; name=\"profile\"\r\n\r\nabc"}),
                  422, "invalid_argument", "multipart");
  expectJsonError(post("/ingest?name=app&format=jfr", {"--data-binary", "FLR"}), 422, "invalid_argument", "JFR");
  expectJsonError(post("/ingest?name=app&format=trie", {"--data-binary", "x"}), 422, "unimplemented", "trie");
  // Wrong method and unknown path come from the shared server, in the same JSON shape.
  Reply r = post("/nothing-here?name=app", {"--data-binary", "a 1"});
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.body.find("\"code\""), std::string::npos) << r.body;
  EXPECT_TRUE(batches().empty());

  // Still serving.
  r = post("/ingest?name=app.cpu", {"--data-binary", "a;b 1"});
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(batches().size(), 1u);
}

TEST_F(ReceiverTest, BombsAreRefusedWith413) {
  // A gzip pprof that inflates 1000x: over the ratio cap once past 1 MiB of output.
  std::string zeros(64u << 20, '\0'), bomb;
  ASSERT_TRUE(compression::compress(compression::Codec::kGzip, zeros, bomb).isOk());
  const std::string bomb_path = dir_.write("bomb.gz", bomb);
  expectJsonError(post("/ingest?name=app&format=pprof", {"--data-binary", "@" + bomb_path}), 413,
                  "resource_exhausted", "ratio");
  // Same bomb as a multipart part.
  expectJsonError(post("/ingest?name=app", {"-F", "profile=@" + bomb_path}), 413, "resource_exhausted", "ratio");
  // And as Content-Encoding of the whole request, refused by the shared server before any parsing.
  Reply r = post("/ingest?name=app&format=pprof", {"-H", "Content-Encoding: gzip", "--data-binary", "@" + bomb_path});
  EXPECT_EQ(r.status, 413);
  EXPECT_NE(r.body.find("\"code\""), std::string::npos) << r.body;
  EXPECT_TRUE(batches().empty());
  Reply ok = post("/ingest?name=app.cpu", {"--data-binary", "a 1"});
  EXPECT_EQ(ok.status, 200);
}

TEST_F(ReceiverTest, LimitsFromConfig) {
  PyroscopeReceiverConfig cfg;
  cfg.max_profile_size = config::ByteSize(4u << 10);  // the Node wall profile is 7.5 KiB decompressed
  start(cfg);
  expectJsonError(post("/ingest?name=app&format=pprof", {"--data-binary", "@" + testdata("ingest_wall.pb.gz")}), 413,
                  "resource_exhausted", "");
}

TEST_F(ReceiverTest, PipelineRefusalsBecome429WithRetryAfterOr422) {
  capture_->answer = Status::exhausted("queue full").withRetryAfter(std::chrono::milliseconds(2500));
  Reply r = post("/ingest?name=app.cpu", {"--data-binary", "a 1"});
  expectJsonError(r, 429, "resource_exhausted", "queue full");
  EXPECT_NE(r.headers.find("Retry-After: 3"), std::string::npos) << r.headers;
  capture_->answer = Status::unavailable("exporter down");
  r = post("/ingest?name=app.cpu", {"--data-binary", "a 1"});
  EXPECT_EQ(r.status, 429);
  EXPECT_NE(r.headers.find("Retry-After: 1"), std::string::npos) << r.headers;
  capture_->answer = Status::invalid("refused for good");
  expectJsonError(post("/ingest?name=app.cpu", {"--data-binary", "a 1"}), 422, "invalid_argument", "refused for good");
}

TEST_F(ReceiverTest, RequestsBeyondTheConcurrencyLimitGet429) {
  PyroscopeReceiverConfig cfg;
  cfg.max_concurrent_requests = 1;
  start(cfg);
  capture_->setHold(true);
  std::thread first([&] { EXPECT_EQ(post("/ingest?name=app.cpu", {"--data-binary", "a 1"}).status, 200); });
  capture_->waitEntered(1);  // the first request now occupies the only slot
  // Separate response files: the first curl is still running.
  proflow::testing::TempDir other;
  std::string out;
  proflow::testing::runCommand({"curl", "-sS", "-o", other.file("body"), "-D", other.file("headers"), "-w",
                                "%{http_code}", "--data-binary", "a 1",
                                "http://127.0.0.1:" + std::to_string(port_) + "/ingest?name=app.cpu"},
                               &out);
  EXPECT_EQ(out, "429");
  EXPECT_NE(proflow::testing::readFile(other.file("headers")).find("Retry-After: 1"), std::string::npos);
  EXPECT_NE(proflow::testing::readFile(other.file("body")).find("too many concurrent"), std::string::npos);
  capture_->setHold(false);
  first.join();
  EXPECT_EQ(post("/ingest?name=app.cpu", {"--data-binary", "a 1"}).status, 200);  // the slot is free again
}

TEST_F(ReceiverTest, ShutdownLetsAcceptedRequestsFinish) {
  capture_->setHold(true);
  std::thread client([&] { EXPECT_EQ(post("/ingest?name=app.cpu", {"--data-binary", "a 1"}).status, 200); });
  capture_->waitEntered(1);
  std::atomic<bool> done{false};
  std::thread stopper([&] {
    receiver_->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(60));
    done = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(done.load());  // still waiting for the request inside the pipeline
  capture_->setHold(false);
  stopper.join();
  client.join();  // and that request got its 200
  EXPECT_EQ(batches().size(), 1u);
}

}  // namespace
}  // namespace proflow::receivers::pyroscope::testing
