// The symbolstore extension over real sockets: HTTP PUT uploads of a g++-built program's debug file
// and executable, the debuginfod GET protocol, the refusals (wrong build id, not ELF, too large,
// unauthenticated), LRU eviction under the quota, a restart keeping the store, upstream
// fall-through, and config errors listed with file:line.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>

#include <unistd.h>
#include <thread>

#include "cmd/proflow/builtins.h"
#include "core/config/service_config.h"
#include "core/net/http_client.h"
#include "extensions/symbolstore/symbol_store_extension.h"
#include "tests/extensions/symbolstore/test_binaries.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"
#include "tests/support/tls_test_server.h"

namespace proflow::symbolstore_testing {
namespace {

namespace fs = std::filesystem;
using extensions::symbolstore::SymbolStoreExtension;

int httpPortOf(Service& service) {
  auto* ext = dynamic_cast<SymbolStoreExtension*>(service.extension(ComponentId{"symbolstore", ""}));
  return ext ? ext->httpPort() : 0;
}

std::string gatewayYaml(const std::string& dir, const std::string& store_extra = "",
                        const std::string& max_upload_size = "4MiB") {
  return R"(
extensions:
  bearertokenauth/ci: { token: ci-token }
  symbolstore:
    endpoint: 127.0.0.1:0
    directory: )" + dir + R"(
    max_upload_size: )" + max_upload_size + R"(
    quota_bytes: 64MiB
    auth: { authenticator: bearertokenauth/ci }
)" + store_extra + R"(
receivers: { fake: {} }
exporters: { fake: {} }
service:
  extensions: [bearertokenauth/ci, symbolstore]
  shutdown_timeout: 1s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles: { receivers: [fake], exporters: [fake] }
)";
}

class SymbolStoreHttpTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    app_ = buildApp(dir_->path().string());
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override { ASSERT_TRUE(app_.error.empty()) << app_.error; }

  void start(const std::string& yaml) {
    service_ = startService(yaml);
    ASSERT_TRUE(service_);
    port_ = httpPortOf(*service_);
    ASSERT_NE(port_, 0);
  }
  std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port_) + path; }

  net::HttpResult put(const std::string& path, const std::string& body, const std::string& token = "ci-token") {
    net::HttpHeaders h;
    if (!token.empty()) h.emplace("Authorization", "Bearer " + token);
    return client_.request("PUT", url(path), h, body, std::chrono::seconds(20));
  }
  net::HttpResult get(const std::string& path, const std::string& token = "ci-token") {
    net::HttpHeaders h;
    if (!token.empty()) h.emplace("Authorization", "Bearer " + token);
    return client_.request("GET", url(path), h, {}, std::chrono::seconds(20));
  }

  double metric(const std::string& name, net::HttpHeaders::value_type label) {
    return service_->metrics().value("proflow_extension_" + name, {{"extension", "symbolstore"}, label});
  }

  static inline testing::TempDir* dir_ = nullptr;
  static inline App app_;
  testing::TempDir t_;
  std::unique_ptr<Service> service_;
  int port_ = 0;
  net::HttpClient client_{[] {
    net::HttpClientOptions o;
    o.max_response_bytes = 64u << 20;
    return o;
  }()};
};

TEST_F(SymbolStoreHttpTest, StoresUploadsAndServesThemOverDebuginfod) {
  start(gatewayYaml(t_.file("store")));
  const std::string debug = testing::readFile(app_.debug), exe = testing::readFile(app_.stripped);
  net::HttpResult r = put("/debuginfo/" + app_.build_id, debug);
  ASSERT_TRUE(r.status.isOk()) << r.status.toString();
  EXPECT_EQ(r.http_status, 201) << r.body;
  r = put("/debuginfo/" + app_.build_id + "/executable", exe);
  EXPECT_EQ(r.http_status, 201) << r.body;
  EXPECT_EQ(testing::readFile(t_.file("store/" + app_.build_id + "/debuginfo")), debug);

  r = get("/buildid/" + app_.build_id + "/debuginfo");
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.body, debug);
  EXPECT_EQ(std::string(net::headerValue(r.headers, "X-DEBUGINFOD-SIZE")), std::to_string(debug.size()));
  r = get("/buildid/" + app_.build_id + "/executable");
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.body, exe);
  EXPECT_EQ(metric("symbolstore_uploads_total", {"protocol", "http"}), 2);

  // Misses, sources and malformed ids: 404 / 400, never a crash.
  EXPECT_EQ(get("/buildid/0123456789abcdef/debuginfo").http_status, 404);
  EXPECT_EQ(get("/buildid/" + app_.build_id + "/source/usr/src/app.cc").http_status, 404);
  EXPECT_EQ(get("/buildid/ABCDEF/debuginfo").http_status, 400);
  EXPECT_EQ(get("/buildid/" + app_.build_id + "/nonsense").http_status, 400);
  EXPECT_EQ(get("/elsewhere").http_status, 404);
  // With an authenticator, downloads need credentials as uploads do, and a client without them
  // learns nothing, not even which paths exist.
  EXPECT_EQ(put("/debuginfo/" + app_.build_id, debug, "").http_status, 401);
  r = get("/buildid/" + app_.build_id + "/debuginfo", "");
  EXPECT_EQ(r.http_status, 401);
  EXPECT_EQ(r.body.find(debug.substr(0, 64)), std::string::npos);
  EXPECT_EQ(get("/buildid/" + app_.build_id + "/debuginfo", "wrong-token").http_status, 401);
  EXPECT_EQ(get("/elsewhere", "").http_status, 401);
}

// Reads open to anyone only when the config says so.
TEST_F(SymbolStoreHttpTest, DownloadsAreOpenOnlyWithAuthDownloadsFalse) {
  start(gatewayYaml(t_.file("store"), "    auth_downloads: false\n"));
  ASSERT_EQ(put("/debuginfo/" + app_.build_id, testing::readFile(app_.debug)).http_status, 201);
  EXPECT_EQ(get("/buildid/" + app_.build_id + "/debuginfo", "").http_status, 200);
  EXPECT_EQ(put("/debuginfo/" + app_.build_id, testing::readFile(app_.debug), "").http_status, 401);
}

// A stored build id keeps its bytes: the same file again is accepted, another file under that id is
// refused with 409 and changes nothing, whoever uploads it.
TEST_F(SymbolStoreHttpTest, AStoredBuildIdIsNeverOverwritten) {
  start(gatewayYaml(t_.file("store")));
  const std::string debug = testing::readFile(app_.debug), unstripped = testing::readFile(app_.unstripped);
  ASSERT_NE(debug, unstripped);
  ASSERT_EQ(buildIdOf(app_.unstripped), app_.build_id) << "both files carry the same build id";
  ASSERT_EQ(put("/debuginfo/" + app_.build_id, debug).http_status, 201);
  EXPECT_EQ(put("/debuginfo/" + app_.build_id, debug).http_status, 201) << "a retried upload";
  net::HttpResult r = put("/debuginfo/" + app_.build_id, unstripped);
  EXPECT_EQ(r.http_status, 409) << r.body;
  EXPECT_NE(r.body.find("never replaced"), std::string::npos) << r.body;
  EXPECT_EQ(get("/buildid/" + app_.build_id + "/debuginfo").body, debug);
  EXPECT_EQ(testing::readFile(t_.file("store/" + app_.build_id + "/debuginfo")), debug);
  EXPECT_EQ(service_->metrics().value("proflow_extension_symbolstore_uploads_refused_total",
                                      {{"extension", "symbolstore"}, {"protocol", "http"}, {"reason", "exists"}}),
            1);
  EXPECT_TRUE(fs::is_empty(t_.file("store/.tmp")));
}

TEST_F(SymbolStoreHttpTest, RefusesWrongBuildIdNonElfOversizedAndUnauthenticatedUploads) {
  start(gatewayYaml(t_.file("store")));
  const std::string debug = testing::readFile(app_.debug);
  const std::string other_id = "00112233445566778899aabbccddeeff00112233";

  net::HttpResult r = put("/debuginfo/" + other_id, debug);
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body.find("build id mismatch: the file's GNU build id is " + app_.build_id), std::string::npos) << r.body;
  r = put("/debuginfo/" + app_.build_id, "#!/bin/sh\necho not elf\n");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body.find("not an ELF file"), std::string::npos) << r.body;
  r = put("/debuginfo/" + app_.build_id, debug.substr(0, debug.size() / 2));
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body.find("truncated ELF file"), std::string::npos) << r.body;
  r = put("/debuginfo/not-hex", debug);
  EXPECT_EQ(r.http_status, 400);
  // curl, as the CI script uses it: Expect: 100-continue lets the server refuse before the body.
  const std::string big = t_.write("big", std::string(5u << 20, 'x'));
  CommandResult c = run("curl -sS -o /dev/null -w '%{http_code}' -X PUT -H 'Authorization: Bearer ci-token' --data-binary @" +
                        big + " " + url("/debuginfo/" + app_.build_id));
  EXPECT_EQ(c.output, "413");
  r = put("/debuginfo/" + app_.build_id, debug, "wrong-token");
  EXPECT_EQ(r.http_status, 401);

  auto refused = [&](const char* reason) {
    return service_->metrics().value("proflow_extension_symbolstore_uploads_refused_total",
                                     {{"extension", "symbolstore"}, {"protocol", "http"}, {"reason", reason}});
  };
  EXPECT_EQ(refused("build_id_mismatch"), 1);
  EXPECT_EQ(refused("not_elf"), 2);
  EXPECT_EQ(refused("bad_request"), 1);
  EXPECT_EQ(metric("http_rejected_requests_total", {"reason", "too_large"}), 1);
  EXPECT_EQ(metric("http_rejected_requests_total", {"reason", "unauthenticated"}), 1);
  // Nothing was stored, no temp file was left, and the gateway still serves.
  EXPECT_FALSE(fs::exists(t_.file("store/" + other_id)));
  EXPECT_TRUE(fs::is_empty(t_.file("store/.tmp")));
  EXPECT_EQ(get("/buildid/" + app_.build_id + "/debuginfo").http_status, 404);
  EXPECT_EQ(put("/debuginfo/" + app_.build_id, debug).http_status, 201);
}

TEST_F(SymbolStoreHttpTest, UploadsInProgressBoundTheMemoryOfNewOnes) {
  start(gatewayYaml(t_.file("store")));  // max_upload_size 4MiB: 8MiB in flight
  // A slow client announces 3 MiB and sends 1 KiB: its claim holds while it stalls.
  const int fd = testing::connectLoopback(port_);
  ASSERT_GE(fd, 0);
  const std::string head = testing::requestHead("PUT", "/debuginfo/" + app_.build_id,
                                                {{"Authorization", "Bearer ci-token"}}, 3u << 20);
  const std::string start_of_body = head + std::string(1024, 'x');
  ASSERT_EQ(::write(fd, start_of_body.data(), start_of_body.size()), static_cast<ssize_t>(start_of_body.size()));
  const std::string big = t_.write("big", std::string(3u << 20, 'x'));
  for (int i = 0; i < 100 && service_->metrics().value("proflow_extension_http_rejected_requests_total",
                                                       {{"extension", "symbolstore"}, {"reason", "in_flight_limit"}}) == 0;
       ++i) {
    CommandResult c = run("curl -sS -o /dev/null -w '%{http_code}' -X PUT -H 'Authorization: Bearer ci-token' "
                          "--data-binary @" + big + " " + url("/debuginfo/" + app_.build_id));
    if (c.output == "429") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the first claim not made yet
  }
  EXPECT_EQ(metric("http_rejected_requests_total", {"reason", "in_flight_limit"}), 1);
  ::close(fd);
  // Once the stalled client is gone, a small upload goes through again.
  bool stored = false;
  for (int i = 0; i < 100 && !stored; ++i) {
    stored = put("/debuginfo/" + app_.build_id, testing::readFile(app_.debug)).http_status == 201;
    if (!stored) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(stored);
}

// A client that sends its next request as soon as it reads an answer finds the budget free: each
// answer leaves the server only after its request's claim is let go (a download's claim goes with
// the answer until it is written). The budget here fits one transfer at a time.
TEST_F(SymbolStoreHttpTest, SequentialTransfersNeverFindTheBudgetHeldByTheLastAnswer) {
  const std::string debug = testing::readFile(app_.debug);
  const std::string limit = std::to_string(debug.size());
  start(gatewayYaml(t_.file("store"), "    max_in_flight_bytes: " + limit + "\n", limit));
  int refused = 0;
  for (int i = 0; i < 150; ++i) {
    if (put("/debuginfo/" + app_.build_id, debug).http_status != 201) ++refused;
    if (get("/buildid/" + app_.build_id + "/debuginfo").http_status != 200) ++refused;
  }
  EXPECT_EQ(refused, 0);
}

TEST_F(SymbolStoreHttpTest, EvictsLeastRecentlyUsedUnderQuotaAndKeepsStoreOverRestart) {
  std::string tiny[3];
  for (int i = 0; i < 3; ++i) {
    tiny[i] = buildTiny(t_.path().string(), i + 1);
    ASSERT_FALSE(tiny[i].empty());
  }
  const uint64_t size = fs::file_size(tiny[0]);
  const std::string quota = std::to_string(size * 5 / 2);
  const std::string yaml = R"(
extensions:
  symbolstore: { endpoint: 127.0.0.1:0, directory: )" + t_.file("store") + ", max_upload_size: " + quota +
                           ", quota_bytes: " + quota + R"( }
receivers: { fake: {} }
exporters: { fake: {} }
service:
  extensions: [symbolstore]
  shutdown_timeout: 1s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines: { profiles: { receivers: [fake], exporters: [fake] } }
)";
  start(yaml);
  std::string id[3];
  for (int i = 0; i < 3; ++i) id[i] = buildIdOf(tiny[i]);
  ASSERT_EQ(put("/debuginfo/" + id[0] + "/executable", testing::readFile(tiny[0]), "").http_status, 201);
  ASSERT_EQ(put("/debuginfo/" + id[1] + "/executable", testing::readFile(tiny[1]), "").http_status, 201);
  // Reading the first makes the second the least recently used one.
  ASSERT_EQ(get("/buildid/" + id[0] + "/executable").http_status, 200);
  ASSERT_EQ(put("/debuginfo/" + id[2] + "/executable", testing::readFile(tiny[2]), "").http_status, 201);
  EXPECT_EQ(get("/buildid/" + id[1] + "/executable").http_status, 404);
  EXPECT_EQ(get("/buildid/" + id[0] + "/executable").http_status, 200);
  EXPECT_EQ(get("/buildid/" + id[2] + "/executable").http_status, 200);
  EXPECT_FALSE(fs::exists(t_.file("store/" + id[1])));
  EXPECT_EQ(service_->metrics().value("proflow_extension_symbolstore_evictions", {{"extension", "symbolstore"}}), 1);

  // A new process indexes the directory: the same files, the same answers.
  service_->shutdown();
  service_.reset();
  start(yaml);
  EXPECT_EQ(service_->metrics().value("proflow_extension_symbolstore_files", {{"extension", "symbolstore"}}), 2);
  EXPECT_EQ(get("/buildid/" + id[0] + "/executable").body, testing::readFile(tiny[0]));
  EXPECT_EQ(get("/buildid/" + id[2] + "/executable").http_status, 200);
  EXPECT_EQ(get("/buildid/" + id[1] + "/executable").http_status, 404);
}

TEST_F(SymbolStoreHttpTest, ConcurrentUploadsAndReadsKeepTheStoreConsistent) {
  start(gatewayYaml(t_.file("store")));
  std::vector<std::string> files, ids;
  for (int i = 0; i < 4; ++i) {
    files.push_back(buildTiny(t_.path().string(), 10 + i));
    ASSERT_FALSE(files.back().empty());
    ids.push_back(buildIdOf(files.back()));
  }
  std::atomic<int> created{0}, served{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 5; ++round) {
        const size_t i = static_cast<size_t>((t + round) % 4);
        if (put("/debuginfo/" + ids[i] + "/executable", testing::readFile(files[i])).http_status == 201) ++created;
        if (get("/buildid/" + ids[i] + "/executable").body == testing::readFile(files[i])) ++served;
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(created, 40);
  EXPECT_EQ(served, 40);
  uint64_t total = 0;
  for (const auto& f : files) total += fs::file_size(f);
  EXPECT_EQ(service_->metrics().value("proflow_extension_symbolstore_bytes", {{"extension", "symbolstore"}}), total);
  EXPECT_EQ(service_->metrics().value("proflow_extension_symbolstore_files", {{"extension", "symbolstore"}}), 4);
  EXPECT_TRUE(fs::is_empty(t_.file("store/.tmp")));
}

TEST_F(SymbolStoreHttpTest, ServesUploadsAndDownloadsOverTls) {
  const std::string cert = t_.file("cert.pem"), key = t_.file("key.pem");
  ASSERT_TRUE(testing::makeSelfSignedCert(cert, key));
  start(gatewayYaml(t_.file("store"), "    tls: { cert_file: " + cert + ", key_file: " + key + " }\n"));
  const std::string base = "https://localhost:" + std::to_string(port_);
  CommandResult c = run("curl -sS --cacert " + cert + " -o /dev/null -w '%{http_code}' -X PUT -H 'Authorization: Bearer "
                        "ci-token' --data-binary @" + app_.debug + " " + base + "/debuginfo/" + app_.build_id);
  EXPECT_EQ(c.output, "201");
  c = run("curl -sS --cacert " + cert + " -H 'Authorization: Bearer ci-token' -o " + t_.file("got") +
          " -w '%{http_code}' " + base + "/buildid/" + app_.build_id + "/debuginfo");
  EXPECT_EQ(c.output, "200");
  EXPECT_EQ(testing::readFile(t_.file("got")), testing::readFile(app_.debug));
  EXPECT_EQ(get("/buildid/" + app_.build_id + "/debuginfo").http_status, 0);  // plain text is not answered
}

TEST_F(SymbolStoreHttpTest, MissesFallThroughToUpstreamAndAreCached) {
  start(gatewayYaml(t_.file("upstream"), "    auth_downloads: false\n"));  // the client sends no token
  ASSERT_EQ(put("/debuginfo/" + app_.build_id, testing::readFile(app_.debug)).http_status, 201);
  auto upstream = std::move(service_);
  const std::string upstream_url = url("");
  start(gatewayYaml(t_.file("store"), "    upstream_debuginfod: [\"" + upstream_url + "\"]\n"));
  net::HttpResult r = get("/buildid/" + app_.build_id + "/debuginfo");
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.body, testing::readFile(app_.debug));
  EXPECT_TRUE(fs::exists(t_.file("store/" + app_.build_id + "/debuginfo")));
  EXPECT_EQ(get("/buildid/0123456789abcdef/debuginfo").http_status, 404);
  auto lookups = [&](const char* result) {
    return service_->metrics().value("proflow_extension_symbolstore_lookups_total",
                                     {{"extension", "symbolstore"}, {"artifact", "debuginfo"}, {"result", result}});
  };
  // The second request is answered from the cache.
  EXPECT_EQ(get("/buildid/" + app_.build_id + "/debuginfo").http_status, 200);
  EXPECT_EQ(lookups("upstream"), 1);
  EXPECT_EQ(lookups("hit"), 1);
  EXPECT_EQ(lookups("miss"), 1);
  // A miss is remembered (upstream_miss_ttl): the upstream server is asked once for it.
  EXPECT_EQ(get("/buildid/0123456789abcdef/debuginfo").http_status, 404);
  EXPECT_EQ(lookups("miss"), 2);
  EXPECT_EQ(upstream->metrics().value("proflow_extension_symbolstore_lookups_total",
                                      {{"extension", "symbolstore"}, {"artifact", "debuginfo"}, {"result", "miss"}}),
            1);
}

TEST(SymbolStoreConfigTest, EveryErrorIsListedWithItsLine) {
  const std::string errors = configErrors(R"(
extensions:
  symbolstore:
    endpoint: "not an endpoint"
    max_upload_size: 2GiB
    quota_bytes: 1GiB
    upstream_debuginfod: [ftp://example.org]
receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:0 } } } }
exporters: { debug: {} }
service:
  extensions: [symbolstore]
  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }
)");
  EXPECT_NE(errors.find("test.yaml:4"), std::string::npos) << errors;  // endpoint
  EXPECT_NE(errors.find("directory"), std::string::npos) << errors;
  EXPECT_NE(errors.find("test.yaml:6"), std::string::npos) << errors;  // quota below max_upload_size
  EXPECT_NE(errors.find("test.yaml:7"), std::string::npos) << errors;  // upstream URL

  const std::string auth_errors = configErrors(R"(
extensions:
  symbolstore:
    directory: /tmp/unused
    auth: { authenticator: bearertokenauth/missing }
receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:0 } } } }
exporters: { debug: {} }
service:
  extensions: [symbolstore]
  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }
)");
  EXPECT_NE(auth_errors.find("test.yaml:5"), std::string::npos) << auth_errors;
  EXPECT_NE(auth_errors.find("bearertokenauth/missing"), std::string::npos) << auth_errors;
}

TEST(SymbolStoreConfigTest, SymbolizeRefusesToStartWithoutTheStoreItNames) {
  Registry registry;
  ASSERT_TRUE(registerBuiltins(registry).isOk());
  config::ServiceConfig cfg;
  std::string errors;
  ASSERT_TRUE(config::loadServiceConfigText(R"(
receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:0 } } } }
processors: { symbolize: { symbol_source: symbolstore } }
exporters: { debug: {} }
service:
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines: { profiles: { receivers: [otlp], processors: [symbolize], exporters: [debug] } }
)", "test.yaml", registry, &cfg, &errors).isOk()) << errors;
  Service service(std::move(cfg));
  Status s = service.start();
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("symbol_source 'symbolstore'"), std::string::npos) << s.toString();
  service.shutdown();
}

}  // namespace
}  // namespace proflow::symbolstore_testing
