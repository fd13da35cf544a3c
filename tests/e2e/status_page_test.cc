// The status page in a real browser: a proflow daemon (ports 0) is fed known profiles over OTLP/HTTP
// (a Go CPU profile converted from pprof, and a request of hand-written stacks), then Debian's
// chromium loads http://127.0.0.1:<telemetry port>/ headless. The DOM after the page's scripts ran
// must show the pipeline's components and the known functions in the flame graph, and the
// screenshot must be a real PNG. A hot reload in between must keep the flame graph's data.
//
// PROFLOW_STATUS_SCREENSHOT=<path> also copies the screenshot there (docs/status-page.png).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "core/formats/pprof/pprof_codec.h"
#include "tests/support/pprof_request.h"
#include "tests/core/formats/pprof/go_tools.h"
#include "tests/support/daemon.h"
#include "tests/support/go_programs.h"
#include "tests/support/machine_permits.h"
#include "tests/support/profile_builder.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;

std::string config(int telemetry_port, const std::string& out, const std::string& processors) {
  return "receivers: { otlp: { protocols: { http: { endpoint: 127.0.0.1:0 } } } }\n"
         "processors: { batch: { timeout: 50ms }, attributes: { actions: [{ key: team, value: a, action: insert }] } }\n"
         "exporters: { file: { path: " + out + ", format: otlp_proto, flush_interval: 0 } }\n"
         "service:\n"
         "  telemetry: { metrics: { address: 127.0.0.1:" + std::to_string(telemetry_port) + " } }\n"
         "  pipelines: { profiles: { receivers: [otlp], processors: [" + processors + "], exporters: [file] } }\n";
}

// The port a log line "<prefix>... (port N)" announced; 0 until it is there.
int loggedPort(const std::string& log, const std::string& prefix) {
  std::smatch m;
  if (std::regex_search(log, m, std::regex(prefix + "[^\\n]*\\(port ([0-9]+)\\)"))) return std::stoi(m[1]);
  return 0;
}

testing::RawResponse post(int port, const otlp::Request& r) {
  return testing::rawPost(port, "/v1development/profiles", {{"Content-Type", "application/x-protobuf"}},
                          r.SerializeAsString(), 30s);
}

otlp::Request goCpuProfile() {
  otlp::Request r;
  pprof::PprofToOtlpOptions options;
  options.resource_attributes = {{"service.name", "go-app"}};
  const std::string path = std::string(PROFLOW_SOURCE_DIR) + "/tests/core/flat/testdata/go_cpu.pb.gz";
  EXPECT_TRUE(pprof::pprofBytesToOtlp(testing::readFile(path), options, &r).isOk());
  return r;
}

otlp::Request knownStacks() {
  testing::ProfileSpec p;
  p.samples = {{{"checkoutParseCart", "checkoutHandle", "main"}, 7'000'000},
               {{"checkoutWriteOrder", "checkoutHandle", "main"}, 3'000'000}};
  return testing::makeRequest("checkout", {p});
}

// Runs chromium headless on `url`; returns the DOM after the page's scripts ran. With `png`, takes
// a screenshot of the same page there instead.
std::string browse(const std::string& url, const testing::TempDir& dir, const std::string& png = "") {
  std::vector<std::string> argv = {"chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                   "--disable-dev-shm-usage", "--user-data-dir=" + dir.file("chromium"),
                                   "--window-size=1400,1000", "--virtual-time-budget=8000"};
  argv.push_back(png.empty() ? "--dump-dom" : "--screenshot=" + png);
  argv.push_back(url);
  std::string out;
  EXPECT_EQ(testing::runCommand(argv, &out, 120s), 0) << out;
  return out;
}

TEST(StatusPage, ChromiumRendersThePipelinesAndTheFlameGraphOfWhatPassedThrough) {
  testing::TempDir dir;
  const std::string cfg = dir.write("proflow.yaml", config(0, dir.file("out.bin"), "batch"));
  testing::Daemon d({"--config", cfg}, dir.file("d.log"));
  int telemetry = 0, http = 0;
  ASSERT_TRUE(testing::waitFor([&] {
    telemetry = loggedPort(d.log(), "telemetry: ");
    http = loggedPort(d.log(), "OTLP/HTTP listening");
    return telemetry > 0 && http > 0;
  })) << d.log();
  ASSERT_TRUE(d.waitHealthy(telemetry)) << d.log();

  ASSERT_EQ(post(http, goCpuProfile()).status, 200);
  ASSERT_EQ(post(http, knownStacks()).status, 200);
  std::string series;
  ASSERT_TRUE(testing::waitFor([&] {
    return testing::httpGet(telemetry, "/api/flamegraph/series", &series) == 200 &&
           series.find("\"checkout\"") != std::string::npos && series.find("\"go-app\"") != std::string::npos;
  })) << series;

  // A hot reload (a processor added) keeps the flame graph's data and keeps feeding it.
  const std::string next = config(0, dir.file("out.bin"), "attributes, batch");
  { std::ofstream(cfg, std::ios::trunc) << next; }
  auto reload = testing::rawPost(telemetry, "/-/reload", {}, "", 60s);
  ASSERT_EQ(reload.status, 200) << reload.body;
  ASSERT_EQ(post(http, knownStacks()).status, 200);
  std::string tree;
  ASSERT_TRUE(testing::waitFor([&] {
    return testing::httpGet(telemetry, "/api/flamegraph?service=checkout&type=cpu/nanoseconds&window=5m", &tree) == 200 &&
           tree.find("\"total\":20000000") != std::string::npos;
  })) << tree;

  // Rates need a snapshot at least a second old, and the page polls on chromium's virtual time,
  // where no real time passes: browsing within the daemon's first second would never show them.
  std::string status;
  ASSERT_TRUE(testing::waitFor([&] {
    return testing::httpGet(telemetry, "/api/status", &status) == 200 &&
           status.find("\"rates\":{") != std::string::npos;
  })) << status;

  const std::string page = "http://127.0.0.1:" + std::to_string(telemetry) + "/";
  const std::string dom = browse(page, dir);
  // The pipeline graph: every component of the (reloaded) pipeline, with its rates.
  for (const char* c : {"receiver:otlp", "processor:attributes", "processor:batch", "exporter:file"})
    EXPECT_NE(dom.find(std::string("data-component=\"") + c + "\""), std::string::npos) << c << "\n" << dom;
  EXPECT_NE(dom.find("profiles/s"), std::string::npos);
  EXPECT_NE(dom.find("class=\"badge ok\""), std::string::npos);
  // The header gives the CPU total in its unit's human form (two requests of 10 ms each).
  EXPECT_NE(dom.find("checkout · cpu/nanoseconds · last 1m: 20.0 ms in"), std::string::npos) << dom;
  // The flame graph of the first service in the list (checkout): its functions as frames.
  EXPECT_NE(dom.find("class=\"frame"), std::string::npos) << dom;
  for (const char* f : {"main", "checkoutHandle", "checkoutParseCart", "checkoutWriteOrder"})
    EXPECT_NE(dom.find(std::string(">") + f + "</div>"), std::string::npos) << f << " is not drawn as a frame\n" << dom;

  // The Go service chosen through the address, with a search: its functions are drawn and the
  // ones matching the search highlighted.
  const std::string go_page = page + "?service=go-app&type=cpu/nanoseconds&window=5m&search=runtime%5C.mallocgc";
  const std::string go_dom = browse(go_page, dir);
  EXPECT_NE(go_dom.find(">main.sortWork</div>"), std::string::npos) << go_dom;
  EXPECT_NE(go_dom.find("class=\"frame match\""), std::string::npos) << go_dom;
  EXPECT_NE(go_dom.find("go-app · cpu/nanoseconds · last 5m"), std::string::npos) << go_dom;

  // The same data through the API, as JSON and as pprof.
  std::string go;
  ASSERT_EQ(testing::httpGet(telemetry, "/api/flamegraph?service=go-app&type=cpu/nanoseconds&window=1m", &go), 200);
  EXPECT_NE(go.find("\"n\":\"runtime."), std::string::npos) << go.substr(0, 2000);
  std::string pprof_body;
  ASSERT_EQ(testing::httpGet(telemetry, "/api/flamegraph?service=go-app&type=cpu/nanoseconds&format=pprof", &pprof_body),
            200);
  pprof::Profile decoded;
  EXPECT_TRUE(pprof::decodeProfile(pprof_body, &decoded).isOk());
  EXPECT_GT(decoded.sample_size(), 10);
  // Google's pprof tool reads it too, where the Go module proxy serves it (the test is reported
  // skipped at its end otherwise, after the rest has run).
  const std::string tool_refused = testing::goModulesRefused(testing::pprofToolModule());
  if (tool_refused.empty()) {
    std::string tool_error;
    const std::string tool = testing::pprofTool(&tool_error);
    ASSERT_FALSE(tool.empty()) << tool_error;
    const std::string pprof_file = dir.write("flame.pb.gz", pprof_body);
    std::string top;
    ASSERT_EQ(testing::runCommand(tool + " -top " + pprof_file, &top), 0) << top;
    EXPECT_NE(top.find("main.sortWork"), std::string::npos) << top;
  }
  std::string bad;
  EXPECT_EQ(testing::httpGet(telemetry, "/api/flamegraph?service=go-app&type=cpu/nanoseconds&window=7m", &bad), 400);
  EXPECT_NE(bad.find("window"), std::string::npos);

  // The screenshot (of the Go service): a PNG of the window's size with more than a blank page in it.
  const std::string png = dir.file("status.png");
  browse(go_page, dir, png);
  const std::string image = testing::readFile(png);
  ASSERT_GT(image.size(), 20'000u) << "screenshot missing or blank";
  EXPECT_EQ(image.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  auto be32 = [&](size_t at) {
    return (static_cast<uint32_t>(static_cast<unsigned char>(image[at])) << 24) |
           (static_cast<uint32_t>(static_cast<unsigned char>(image[at + 1])) << 16) |
           (static_cast<uint32_t>(static_cast<unsigned char>(image[at + 2])) << 8) |
           static_cast<uint32_t>(static_cast<unsigned char>(image[at + 3]));
  };
  EXPECT_EQ(be32(16), 1400u);  // IHDR width
  EXPECT_EQ(be32(20), 1000u);  // IHDR height
  if (const char* copy = std::getenv("PROFLOW_STATUS_SCREENSHOT")) std::filesystem::copy_file(
      png, copy, std::filesystem::copy_options::overwrite_existing);
  EXPECT_EQ(d.terminate(), 0) << d.log();
  PROFLOW_SKIP_IF_REFUSED(tool_refused);
}

// The page and its API sit behind the telemetry endpoint's authenticator, like /metrics; /healthz
// stays open for probes.
TEST(StatusPage, ThePageAndItsApiNeedTheEndpointsCredentials) {
  testing::TempDir dir;
  const std::string cfg = dir.write("proflow.yaml",
      "extensions: { bearertokenauth: { token: page-token } }\n"
      "receivers: { otlp: { protocols: { http: { endpoint: 127.0.0.1:0 } } } }\n"
      "exporters: { debug: {} }\n"
      "service:\n"
      "  extensions: [bearertokenauth]\n"
      "  telemetry: { metrics: { address: 127.0.0.1:0, auth: { authenticator: bearertokenauth } } }\n"
      "  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }\n");
  testing::Daemon d({"--config", cfg}, dir.file("d.log"));
  int telemetry = 0;
  ASSERT_TRUE(testing::waitFor([&] { return (telemetry = loggedPort(d.log(), "telemetry: ")) > 0; })) << d.log();
  ASSERT_TRUE(d.waitHealthy(telemetry)) << d.log();
  auto get = [&](const std::string& path, const testing::RawHeaders& headers) {
    return testing::rawExchange(telemetry, testing::requestHead("GET", path, headers, 0), "", 10s);
  };
  for (const char* path : {"/", "/status.js", "/api/status", "/api/flamegraph/series",
                           "/api/flamegraph?service=a&type=cpu/nanoseconds"}) {
    EXPECT_EQ(get(path, {}).status, 401) << path;
    EXPECT_NE(get(path, {{"Authorization", "Bearer page-token"}}).status, 401) << path;
  }
  auto page = get("/", {{"Authorization", "Bearer page-token"}});
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("<title>proflow status</title>"), std::string::npos);
  EXPECT_EQ(get("/healthz", {}).status, 200);
  EXPECT_EQ(d.terminate(), 0) << d.log();
}

}  // namespace
}  // namespace proflow
