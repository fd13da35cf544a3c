// The real daemon, every network receiver on port 0, fed a malformed and hostile corpus made at test
// time. After each input: the answer is 2xx or a refusal (4xx/429/503 with a message; for gRPC
// INVALID_ARGUMENT/RESOURCE_EXHAUSTED/UNAUTHENTICATED with a message), the daemon is alive and
// healthy, the refusal shows in /metrics, and the daemon's peak RSS (VmHWM, reset before each input)
// stays under the stated bounds: 512 MiB for any single request, 1 GiB under 100+ concurrent large
// bodies. The telemetry endpoint is replayed too (its refusals are counted like a receiver's). Run
// alone with `ctest -L hostile`; heavier crowds are bench/core/ingest_rss.sh.
#include <grpcpp/generic/generic_stub.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <future>
#include <map>
#include <regex>
#include <sstream>
#include <thread>
#include <tuple>

#include "tests/core/formats/jfr/amplifying.h"
#include "tests/e2e/hostile_corpus.h"
#include "tests/e2e/otlp_client.h"
#include "tests/support/daemon.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;
namespace hostile = testing::hostile;
using testing::RawHeaders;
using testing::RawResponse;

constexpr uint64_t kMiB = 1024 * 1024;
constexpr uint64_t kSingleRequestBound = 512 * kMiB;
constexpr uint64_t kConcurrentBound = 1024 * kMiB;
constexpr size_t kBombInflated = 1024 * kMiB;

// Sanitizer runtimes (shadow memory, quarantine) multiply RSS: the bounds hold for normal builds.
#ifdef PROFLOW_SANITIZE
constexpr bool kCheckMemory = false;
#else
constexpr bool kCheckMemory = true;
#endif

struct Ports {
  int otlp_grpc = 0, otlp_http = 0, pprof = 0, pyroscope = 0, jfr = 0, folded = 0;
};

// "<what> ... (port N)" lines the receivers log once listening.
bool parsePorts(const std::string& log, Ports* p) {
  const std::pair<const char*, int*> lines[] = {
      {R"(OTLP/gRPC listening on \S+ \(port (\d+)\))", &p->otlp_grpc},
      {R"(OTLP/HTTP listening on \S+ \(port (\d+)\))", &p->otlp_http},
      {R"(pprof push listening on \S+ \(port (\d+)\))", &p->pprof},
      {R"(Pyroscope ingest listening on \S+ \(port (\d+)\))", &p->pyroscope},
      {R"(jfr receiver: POST \S+ \(port (\d+)\))", &p->jfr},
      {R"(folded receiver listening on \S+ \(port (\d+)\))", &p->folded}};
  for (auto [pattern, port] : lines) {
    std::smatch m;
    if (!std::regex_search(log, m, std::regex(pattern))) return false;
    *port = std::stoi(m[1]);
  }
  return true;
}

std::string daemonConfig(int metrics_port) {
  return R"(receivers:
  otlp: { protocols: { grpc: { endpoint: "127.0.0.1:0" }, http: { endpoint: "127.0.0.1:0" } } }
  pprof: { endpoint: "127.0.0.1:0" }
  pyroscope: { endpoint: "127.0.0.1:0" }
  jfr: { endpoint: "127.0.0.1:0", attributes: { service.name: hostile-jfr } }
  folded: { endpoint: "127.0.0.1:0", attributes: { service.name: hostile-folded } }
exporters:
  debug: { verbosity: basic }
service:
  telemetry: { metrics: { address: "127.0.0.1:)" +
         std::to_string(metrics_port) + R"(" } }
  pipelines:
    profiles: { receivers: [otlp, pprof, pyroscope, jfr, folded], exporters: [debug] }
)";
}

// One HTTP input: where it goes and what it is.
struct HttpCase {
  std::string name;
  int port;
  std::string target;
  RawHeaders headers;
  std::string body;
};

bool isRefusal(int status) { return (status >= 400 && status < 500) || status == 503; }
bool isAnswer(int status) { return (status >= 200 && status < 300) || isRefusal(status); }

class HostileInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    metrics_port_ = testing::freePort();
    daemon_ = std::make_unique<testing::Daemon>(
        std::vector<std::string>{"--config", dir_.write("hostile.yaml", daemonConfig(metrics_port_))},
        dir_.file("daemon.log"));
    ASSERT_TRUE(daemon_->waitHealthy(metrics_port_, 60s)) << daemon_->log();
    const auto until = std::chrono::steady_clock::now() + 30s;
    while (!parsePorts(daemon_->log(), &ports_) && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(50ms);
    ASSERT_TRUE(parsePorts(daemon_->log(), &ports_)) << daemon_->log();
  }

  void TearDown() override {
    if (daemon_ && daemon_->running()) {
      EXPECT_EQ(daemon_->terminate(), 0) << tailOfLog();
    }
  }

  std::string tailOfLog() const {
    std::string log = daemon_->log();
    return log.size() > 4000 ? log.substr(log.size() - 4000) : log;
  }

  // Every refusal counter of every receiver (pipeline refusals and the HTTP server's own).
  double refusals() {
    std::string text;
    if (testing::httpGet(metrics_port_, "/metrics", &text) != 200) return -1;
    double sum = 0;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("proflow_receiver_refused_batches_total", 0) != 0 &&
          line.rfind("proflow_receiver_http_rejected_requests_total", 0) != 0)
        continue;
      sum += std::stod(line.substr(line.rfind(' ') + 1));
    }
    return sum;
  }

  std::string procStatus(const char* field) const {
    std::ifstream in("/proc/" + std::to_string(daemon_->pid()) + "/status");
    for (std::string line; std::getline(in, line);)
      if (line.rfind(field, 0) == 0) return line;
    return "";
  }
  // Peak RSS of the daemon since the last resetPeakRss(), in bytes.
  uint64_t peakRss() const {
    std::string line = procStatus("VmHWM:");
    return line.empty() ? 0 : std::stoull(line.substr(6)) * 1024;
  }
  // Writing 5 to clear_refs resets VmHWM to the current RSS (Linux >= 4.0).
  void resetPeakRss() const { std::ofstream("/proc/" + std::to_string(daemon_->pid()) + "/clear_refs") << "5"; }

  void expectAlive(const std::string& what) {
    ASSERT_TRUE(daemon_->running()) << "the daemon died on: " << what << "\n" << tailOfLog();
    std::string body;
    EXPECT_EQ(testing::httpGet(metrics_port_, "/healthz", &body), 200) << "after " << what;
  }

  void expectPeakUnder(uint64_t bound, const std::string& what) {
    if (!kCheckMemory) return;
    const uint64_t peak = peakRss();
    EXPECT_LE(peak, bound) << what << ": peak RSS " << peak / kMiB << " MiB over the bound of " << bound / kMiB
                           << " MiB";
  }

  // Sends one input and checks everything the daemon owes it; returns the HTTP status.
  int replay(const HttpCase& c, std::chrono::milliseconds timeout = 60s) {
    const double before = refusals();
    resetPeakRss();
    RawResponse r = testing::rawPost(c.port, c.target, c.headers, c.body, timeout);
    const std::string what = c.name + " (" + std::to_string(c.body.size()) + " bytes to " + c.target + ")";
    EXPECT_TRUE(isAnswer(r.status))
        << what << ": answered " << r.status << " " << r.body.substr(0, 200);
    if (isRefusal(r.status)) {
      EXPECT_NE(r.body.find_first_not_of(" \r\n\t"), std::string::npos) << what << ": refusal without a message";
      EXPECT_GT(refusals(), before) << what << ": refused with " << r.status << " but not counted in /metrics";
    }
    expectAlive(what);
    expectPeakUnder(kSingleRequestBound, what);
    return r.status;
  }

  // The same, for every variant of one body.
  void replayAll(const std::string& name, int port, const std::string& target, const RawHeaders& headers,
                 const std::vector<std::string>& bodies) {
    for (size_t i = 0; i < bodies.size(); ++i) replay({name + " #" + std::to_string(i), port, target, headers, bodies[i]});
  }

  // Valid inputs, one per receiver route; the mutations start from these.
  std::vector<HttpCase> validCases() {
    const RawHeaders proto = {{"Content-Type", "application/x-protobuf"}};
    const RawHeaders json = {{"Content-Type", "application/json"}};
    return {
        {"otlp proto", ports_.otlp_http, "/v1development/profiles", proto, hostile::otlpProto()},
        {"otlp json", ports_.otlp_http, "/v1development/profiles", json, hostile::otlpJson()},
        {"pprof gzip", ports_.pprof, "/v1/pprof?service.name=hostile", {}, hostile::pprofGzip()},
        {"pprof raw", ports_.pprof, "/v1/pprof?service.name=hostile", {}, hostile::pprofRaw()},
        {"pyroscope pprof", ports_.pyroscope, "/ingest?name=hostile.cpu&format=pprof", {}, hostile::pprofGzip()},
        {"pyroscope folded", ports_.pyroscope, "/ingest?name=hostile.cpu", {}, hostile::foldedText()},
        {"pyroscope jfr", ports_.pyroscope, "/ingest?name=hostile&format=jfr", {}, hostile::jfrChunk()},
        {"jfr", ports_.jfr, "/v1/jfr", {}, hostile::jfrChunk()},
        {"folded", ports_.folded, "/v1/folded", {}, hostile::foldedText()},
    };
  }

  // Raw bytes as the body of an OTLP/gRPC Export call (no client-side parsing or checks).
  grpc::Status grpcExportRaw(const std::string& bytes, grpc_compression_algorithm compression = GRPC_COMPRESS_NONE) {
    auto channel = grpc::CreateChannel("127.0.0.1:" + std::to_string(ports_.otlp_grpc),
                                       grpc::InsecureChannelCredentials());
    grpc::GenericStub stub(channel);
    grpc::ClientContext ctx;
    ctx.set_deadline(std::chrono::system_clock::now() + 60s);
    if (compression != GRPC_COMPRESS_NONE) ctx.set_compression_algorithm(compression);
    grpc::Slice slice(bytes);
    grpc::ByteBuffer request(&slice, 1), response;
    std::promise<grpc::Status> done;
    stub.UnaryCall(&ctx, "/opentelemetry.proto.collector.profiles.v1development.ProfilesService/Export",
                   grpc::StubOptions(), &request, &response, [&](grpc::Status s) { done.set_value(std::move(s)); });
    return done.get_future().get();
  }

  void replayGrpc(const std::string& what, const std::string& bytes,
                  grpc_compression_algorithm compression = GRPC_COMPRESS_NONE) {
    const double before = refusals();
    resetPeakRss();
    grpc::Status s = grpcExportRaw(bytes, compression);
    const auto code = s.error_code();
    EXPECT_TRUE(code == grpc::StatusCode::OK || code == grpc::StatusCode::INVALID_ARGUMENT ||
                code == grpc::StatusCode::RESOURCE_EXHAUSTED || code == grpc::StatusCode::UNAUTHENTICATED)
        << what << ": gRPC " << code << " " << s.error_message();
    if (!s.ok()) {
      EXPECT_FALSE(s.error_message().empty()) << what << ": refusal without a message";
      EXPECT_GT(refusals(), before) << what << ": refused with gRPC " << code << " but not counted in /metrics";
    }
    expectAlive(what);
    expectPeakUnder(kSingleRequestBound, what);
  }

  testing::TempDir dir_;
  int metrics_port_ = 0;
  Ports ports_;
  std::unique_ptr<testing::Daemon> daemon_;
};

TEST_F(HostileInputTest, ValidFixturesAreAccepted) {
  for (const auto& c : validCases()) {
    const int status = replay(c);
    EXPECT_GE(status, 200) << c.name;
    EXPECT_LT(status, 300) << c.name << " is the start of the mutations: it must be valid";
  }
  EXPECT_TRUE(testing::exportTo(ports_.otlp_grpc, [] {
                otlp::Request r;
                EXPECT_TRUE(r.ParseFromString(hostile::otlpProto()));
                return r;
              }()).ok());
}

TEST_F(HostileInputTest, TruncatedAndBitFlippedInputsAreAnsweredAndCounted) {
  uint32_t seed = 1;
  for (const auto& c : validCases()) {
    replayAll(c.name + " truncated", c.port, c.target, c.headers, hostile::truncations(c.body, 6, seed++));
    replayAll(c.name + " bit-flipped", c.port, c.target, c.headers, hostile::bitFlips(c.body, 6, seed++));
  }
  for (const auto& bytes : hostile::truncations(hostile::otlpProto(), 6, seed++)) replayGrpc("grpc truncated", bytes);
  for (const auto& bytes : hostile::bitFlips(hostile::otlpProto(), 6, seed++)) replayGrpc("grpc bit-flipped", bytes);
  replayGrpc("grpc random bytes", hostile::randomBytes(1 << 20, seed++));
}

TEST_F(HostileInputTest, CompressionBombsAreRefusedWithoutInflating) {
  const std::string gzip = hostile::gzipBomb(kBombInflated);
  const std::string zstd = hostile::zstdBomb(kBombInflated);
  ASSERT_LT(gzip.size(), 2 * kMiB);
  ASSERT_LT(zstd.size(), 2 * kMiB);
  const RawHeaders proto = {{"Content-Type", "application/x-protobuf"}};
  auto with = [](RawHeaders h, const char* encoding) {
    h.emplace_back("Content-Encoding", encoding);
    return h;
  };
  const std::vector<HttpCase> cases = {
      {"otlp gzip bomb", ports_.otlp_http, "/v1development/profiles", with(proto, "gzip"), gzip},
      {"otlp zstd bomb", ports_.otlp_http, "/v1development/profiles", with(proto, "zstd"), zstd},
      {"pprof gzip body bomb", ports_.pprof, "/v1/pprof", {}, gzip},
      {"pprof zstd body bomb", ports_.pprof, "/v1/pprof", {}, zstd},
      {"pprof content-encoding bomb", ports_.pprof, "/v1/pprof", with({}, "gzip"), gzip},
      {"pyroscope pprof bomb", ports_.pyroscope, "/ingest?name=bomb.cpu&format=pprof", {}, gzip},
      {"pyroscope content-encoding bomb", ports_.pyroscope, "/ingest?name=bomb.cpu", with({}, "zstd"), zstd},
      {"jfr gzip bomb", ports_.jfr, "/v1/jfr", {}, gzip},
      {"jfr zstd bomb", ports_.jfr, "/v1/jfr", with({}, "zstd"), zstd},
      {"folded zstd bomb", ports_.folded, "/v1/folded", {}, zstd},
      {"folded gzip content-encoding bomb", ports_.folded, "/v1/folded", with({}, "gzip"), gzip},
  };
  for (const auto& c : cases) EXPECT_TRUE(isRefusal(replay(c))) << c.name << " must be refused";
  // A bomb inside a multipart part (pyroscope-go's upload shape).
  std::string content_type;
  std::string body = hostile::manyPartMultipart(0, gzip, &content_type);
  EXPECT_TRUE(isRefusal(replay({"pyroscope multipart part bomb", ports_.pyroscope, "/ingest?name=bomb.cpu",
                                {{"Content-Type", content_type}}, body})));
  // gRPC: 128 MiB of one repeated byte, gzip-compressed by the client (~128 KiB on the wire).
  otlp::Request big;
  big.mutable_dictionary()->add_string_table(std::string(128 * kMiB, 'a'));
  replayGrpc("grpc gzip bomb", big.SerializeAsString(), GRPC_COMPRESS_GZIP);
}

TEST_F(HostileInputTest, LyingContentLengthAndWrongContentTypes) {
  const std::vector<std::string> lengths = {"1099511627776", "18446744073709551615", "18446744073709551616",
                                            "99999999999999999999999", "-1", "12, 13", "0x10"};
  std::map<int, HttpCase> one_route_per_port;
  for (auto& c : validCases()) one_route_per_port.emplace(c.port, c);
  for (const auto& len : lengths)
    for (const auto& [port, route] : one_route_per_port) {
      RawHeaders headers = route.headers;
      headers.emplace_back("Content-Length", len);
      HttpCase c{route.name + " with Content-Length: " + len, port, route.target, headers, "short body"};
      const int status = replay(c, 30s);
      EXPECT_TRUE(isRefusal(status)) << c.name << " answered " << status;
    }
  const std::string proto = hostile::otlpProto();
  for (const char* type : {"text/html", "application/grpc", ""}) {
    const int status = replay({std::string("otlp Content-Type ") + type, ports_.otlp_http, "/v1development/profiles",
                               {{"Content-Type", type}}, proto});
    EXPECT_TRUE(isRefusal(status)) << type;
  }
  // A media type parameter is not the media type: either answer is fine, as long as it is one.
  replay({"otlp Content-Type with a binary parameter", ports_.otlp_http, "/v1development/profiles",
          {{"Content-Type", "application/x-protobuf; charset=\xff"}}, proto});
  // JSON where protobuf is declared and the other way round.
  replay({"otlp json as protobuf", ports_.otlp_http, "/v1development/profiles",
          {{"Content-Type", "application/x-protobuf"}}, hostile::otlpJson()});
  replay({"otlp protobuf as json", ports_.otlp_http, "/v1development/profiles",
          {{"Content-Type", "application/json"}}, proto});
  replay({"pyroscope multipart without boundary", ports_.pyroscope, "/ingest?name=x.cpu",
          {{"Content-Type", "multipart/form-data"}}, hostile::pprofGzip()});
  replay({"unknown Content-Encoding", ports_.pprof, "/v1/pprof", {{"Content-Encoding", "br"}}, hostile::pprofGzip()});
}

TEST_F(HostileInputTest, DeepNestingAndManyPartsAreBounded) {
  const RawHeaders json = {{"Content-Type", "application/json"}};
  EXPECT_TRUE(isRefusal(replay({"json arrays 200k deep", ports_.otlp_http, "/v1development/profiles", json,
                                hostile::deeplyNestedJsonArrays(200000)})));
  replay({"json kvlist 20k deep", ports_.otlp_http, "/v1development/profiles", json,
          hostile::deeplyNestedAnyValueJson(20000)});
  replay({"json kvlist 60 deep", ports_.otlp_http, "/v1development/profiles", json,
          hostile::deeplyNestedAnyValueJson(60)});
  std::string content_type;
  for (int parts : {5000, 100000}) {
    std::string body = hostile::manyPartMultipart(parts, hostile::pprofGzip(), &content_type);
    replay({"multipart with " + std::to_string(parts) + " parts", ports_.pyroscope, "/ingest?name=parts.cpu",
            {{"Content-Type", content_type}}, body});
  }
}

TEST_F(HostileInputTest, ExpensivePprofShapesStayBounded) {
  replay({"pprof 4000 sample types", ports_.pprof, "/v1/pprof?service.name=types", {},
          hostile::pprofManySampleTypes(4000, 200)});
  replay({"pyroscope pprof 4000 sample types", ports_.pyroscope, "/ingest?name=types.cpu&format=pprof", {},
          hostile::pprofManySampleTypes(4000, 200)});
  replay({"pprof 3M-string table", ports_.pprof, "/v1/pprof?service.name=strings", {},
          hostile::pprofHugeStringTable(3'000'000)});
  replay({"pprof invalid UTF-8", ports_.pprof, "/v1/pprof?service.name=utf8", {}, hostile::pprofInvalidUtf8()});
}

TEST_F(HostileInputTest, JfrWithLyingSizesIsRefused) {
  int i = 0;
  for (const auto& body : hostile::jfrLyingSizes()) {
    const std::string name = "jfr lying size #" + std::to_string(i++);
    replay({name, ports_.jfr, "/v1/jfr", {}, body});
    replay({"pyroscope " + name, ports_.pyroscope, "/ingest?name=lying&format=jfr", {}, body});
  }
}

// Small bodies that convert large: each receiver claims the conversion's estimate before it
// converts, so what fits the default budget is converted within the single-request bound and what
// does not is refused (413) before the blow-up.
TEST_F(HostileInputTest, AmplifyingJfrAndFoldedBodiesAreClaimedBeforeConversion) {
  const std::string deep = testing::jfrDistinctDeepStacks(1000, 500);
  replay({"jfr 500k distinct frames", ports_.jfr, "/v1/jfr", {}, deep});
  replay({"pyroscope jfr 500k distinct frames", ports_.pyroscope, "/ingest?name=amp&format=jfr", {}, deep});
  replay({"jfr 300k distinct spans", ports_.jfr, "/v1/jfr", {}, testing::jfrDistinctSpans(300000)});
  const std::string folded = testing::foldedDistinctFrames(10000, 50);
  replay({"folded 500k distinct frames", ports_.folded, "/v1/folded", {}, folded});
  replay({"pyroscope folded 500k distinct frames", ports_.pyroscope, "/ingest?name=amp.cpu", {}, folded});
  // Past the default max_in_flight_bytes (512 MiB) once converted: refused unconverted.
  const std::string huge_jfr = testing::jfrDistinctDeepStacks(8000, 1000);
  EXPECT_EQ(replay({"jfr 8M distinct frames", ports_.jfr, "/v1/jfr", {}, huge_jfr}), 413);
  const std::string huge_folded = testing::foldedDistinctFrames(30000, 50);
  EXPECT_EQ(replay({"folded 1.5M distinct frames", ports_.folded, "/v1/folded", {}, huge_folded}), 413);
  EXPECT_EQ(replay({"pyroscope folded 1.5M distinct frames", ports_.pyroscope, "/ingest?name=amp.cpu", {},
                    huge_folded}),
            413);
}

// The telemetry endpoint faces the same clients: malformed heads, other methods, unknown and
// traversal paths, oversized headers and bodies. Each is refused with a message and counted.
TEST_F(HostileInputTest, TelemetryEndpointRefusesMalformedRequestsAndCountsThem) {
  const std::string close = "Host: 127.0.0.1\r\nConnection: close\r\n";
  const std::vector<std::tuple<std::string, std::string, std::string>> cases = {
      {"POST /metrics", testing::requestHead("POST", "/metrics", {}, 5), "hello"},
      {"DELETE /healthz", "DELETE /healthz HTTP/1.1\r\n" + close + "\r\n", ""},
      {"unknown path", "GET /admin HTTP/1.1\r\n" + close + "\r\n", ""},
      {"path traversal", "GET /../../etc/passwd HTTP/1.1\r\n" + close + "\r\n", ""},
      {"garbage request line", "\x16\x03\x01\x02\x00 not http\r\n\r\n", ""},
      {"bad version", "GET /metrics HTTP/7.3\r\n" + close + "\r\n", ""},
      {"1 MiB header", "GET /metrics HTTP/1.1\r\n" + close + "X-Big: " + std::string(kMiB, 'a') + "\r\n\r\n", ""},
      {"50 MiB body announced", testing::requestHead("POST", "/healthz", {}, 50 * kMiB), std::string(kMiB, 'b')},
      {"lying Content-Length", testing::requestHead("GET", "/metrics", {{"Content-Length", "18446744073709551616"}}, 0),
       "x"},
  };
  for (const auto& [what, head, body] : cases) {
    const double before = refusals();
    RawResponse r = testing::rawExchange(metrics_port_, head, body, 30s);
    EXPECT_TRUE(isRefusal(r.status)) << "telemetry " << what << ": answered " << r.status << " " << r.body;
    EXPECT_NE(r.body.find_first_not_of(" \r\n\t"), std::string::npos) << "telemetry " << what << ": no message";
    EXPECT_GT(refusals(), before) << "telemetry " << what << ": not counted in /metrics";
    expectAlive("telemetry " + what);
  }
}

TEST_F(HostileInputTest, InvalidUtf8InOtlpStringsIsRefused) {
  EXPECT_TRUE(isRefusal(replay({"otlp proto invalid UTF-8", ports_.otlp_http, "/v1development/profiles",
                                {{"Content-Type", "application/x-protobuf"}}, hostile::otlpInvalidUtf8Proto()})));
  replay({"otlp json invalid UTF-8", ports_.otlp_http, "/v1development/profiles",
          {{"Content-Type", "application/json"}}, hostile::otlpInvalidUtf8Json()});
  replayGrpc("grpc invalid UTF-8", hostile::otlpInvalidUtf8Proto());
}

// Connections that send a partial head or a body a byte at a time must not keep other clients out.
TEST_F(HostileInputTest, SlowlorisConnectionsDoNotStarveOtherClients) {
  std::vector<int> slow;
  const std::vector<HttpCase> valid = validCases();
  for (int round = 0; round < 16; ++round)
    for (const auto& c : valid) {
      int fd = testing::connectLoopback(c.port);
      ASSERT_GE(fd, 0);
      const std::string partial = round % 2 == 0
                                      ? "POST " + c.target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
                                      : testing::requestHead("POST", c.target, c.headers, 50 * kMiB) + "abc";
      ASSERT_GT(send(fd, partial.data(), partial.size(), MSG_NOSIGNAL), 0);
      slow.push_back(fd);
    }
  for (int trickle = 0; trickle < 3; ++trickle) {
    for (int fd : slow) send(fd, "a", 1, MSG_NOSIGNAL);
    for (const auto& c : valid) {
      const int status = replay(c, 30s);
      EXPECT_TRUE(status >= 200 && status < 300) << c.name << " while " << slow.size() << " slow connections are open";
    }
  }
  for (int fd : slow) close(fd);
  expectAlive("slowloris");
}

class HostileConcurrencyTest : public HostileInputTest {
 protected:
  // `clients` concurrent POSTs of `body_bytes` each, spread over the receivers; every answer must be
  // an acceptance or a refusal, and the daemon's peak RSS stay under 1 GiB.
  void run(int clients, size_t body_bytes) {
    // Valid but costly pprof (a large unreferenced string table) and incompressible garbage.
    std::string valid = hostile::pprofHugeStringTable(static_cast<int>(body_bytes / 10));
    valid.resize(std::min(valid.size(), body_bytes));  // truncated if over: still a hostile input
    const std::string garbage = hostile::randomBytes(body_bytes, 99);
    const std::vector<HttpCase> targets = {
        {"pprof", ports_.pprof, "/v1/pprof?service.name=big", {}, ""},
        {"otlp", ports_.otlp_http, "/v1development/profiles", {{"Content-Type", "application/x-protobuf"}}, ""},
        {"jfr", ports_.jfr, "/v1/jfr", {}, ""},
        {"pyroscope", ports_.pyroscope, "/ingest?name=big.cpu&format=pprof", {}, ""},
        {"folded", ports_.folded, "/v1/folded", {}, ""},
    };
    resetPeakRss();
    std::vector<std::thread> threads;
    std::vector<RawResponse> answers(static_cast<size_t>(clients));
    std::atomic<bool> go{false};
    for (int i = 0; i < clients; ++i)
      threads.emplace_back([&, i] {
        while (!go.load()) std::this_thread::yield();
        const HttpCase& t = targets[static_cast<size_t>(i) % targets.size()];
        // One in four is a valid (CPU-heavy) pprof, the rest are refused after being read whole.
        const std::string& body = i % 4 == 0 ? valid : garbage;
        answers[static_cast<size_t>(i)] = testing::rawPost(t.port, t.target, t.headers, body, 300s);
      });
    go = true;
    for (auto& th : threads) th.join();
    std::map<int, int> by_status;
    for (size_t i = 0; i < answers.size(); ++i) {
      const RawResponse& r = answers[i];
      ++by_status[r.status];
      EXPECT_TRUE(isAnswer(r.status))
          << "client " << i << " to " << targets[i % targets.size()].name << ": " << r.status << " "
          << r.body.substr(0, 200);
    }
    std::string summary;
    for (auto [status, n] : by_status) summary += " " + std::to_string(status) + "x" + std::to_string(n);
    RecordProperty("answers", summary);
    RecordProperty("peak_rss_mib", std::to_string(peakRss() / kMiB));
    std::printf("%d clients x %zu MiB: answers%s, peak RSS %llu MiB\n", clients, body_bytes / kMiB, summary.c_str(),
                static_cast<unsigned long long>(peakRss() / kMiB));
    expectAlive(std::to_string(clients) + " concurrent large bodies");
    expectPeakUnder(kConcurrentBound, std::to_string(clients) + " concurrent bodies of " +
                                          std::to_string(body_bytes / kMiB) + " MiB (answers:" + summary + ")");
  }
};

// 480 MiB offered at once: fits a CI run on 2 cores. Heavier crowds (120 x 40 MiB of pprof or OTLP/HTTP):
// bench/core/ingest_rss.sh.
TEST_F(HostileConcurrencyTest, HundredTwentyConcurrentLargeBodiesStayUnderOneGiB) { run(120, 4 * kMiB); }

}  // namespace
}  // namespace proflow
