// Upload once, symbolize everywhere: scripts/upload-symbols pushes a g++-built program's debug info
// to a gateway; then the gateway's own symbolize processor resolves its addresses from the store in
// process, an agent's symbolize processor resolves them through the gateway's debuginfod endpoint,
// and Debian's debuginfod-find and eu-addr2line with DEBUGINFOD_URLS set to the gateway do too.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <thread>

#include "tests/support/dictionary_builder.h"
#include "extensions/symbolstore/symbol_store_extension.h"
#include "tests/extensions/symbolstore/test_binaries.h"
#include "tests/support/fake_components.h"
#include "tests/support/temp_dir.h"
#include "tests/support/flat_request.h"

namespace proflow::symbolstore_testing {
namespace {

using extensions::symbolstore::SymbolStoreExtension;

// One profile whose single sample's stack is one location at `address` in the mapping of `build_id`.
otlp::Request requestFor(const std::string& build_id, uint64_t address) {
  otlp::Request req;
  DictionaryBuilder b(req.mutable_dictionary());
  otlp::Mapping m;
  m.set_filename_strindex(b.string("/opt/app/app"));
  m.add_attribute_indices(b.stringAttribute("process.executable.build_id.gnu", build_id));
  otlp::Location l;
  l.set_mapping_index(b.mapping(m));
  l.set_address(address);
  std::vector<int32_t> stack = {b.location(l)};
  auto* sample = req.add_resource_profiles()->add_scope_profiles()->add_profiles()->add_samples();
  sample->set_stack_index(b.stack(stack));
  sample->add_values(1);
  return req;
}

// "function file:line" of every line of every location that has lines.
std::string linesOf(const otlp::Request& req) {
  const auto& d = req.dictionary();
  std::ostringstream out;
  for (const auto& loc : d.location_table())
    for (const auto& line : loc.lines()) {
      const auto& fn = d.function_table(line.function_index());
      out << dictString(d, fn.name_strindex()) << " " << dictString(d, fn.filename_strindex()) << ":" << line.line()
          << "\n";
    }
  return out.str();
}

// Pushes the request into receiver `fake/<name>` and returns what exporter `fake/<name>` got.
std::string symbolizeThrough(const std::string& name, otlp::Request req) {
  auto* receiver = testing::FakeReceiver::find("fake/" + name);
  auto* exporter = testing::FakeExporter::find("fake/" + name);
  if (receiver == nullptr || exporter == nullptr) return "no fake receiver/exporter " + name;
  Status s = receiver->push(::proflow::testing::batchOf(std::move(req)));
  if (!s.isOk()) return s.toString();
  for (int i = 0; i < 200 && exporter->received().empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto got = exporter->received();
  return got.empty() ? "nothing exported" : linesOf(::proflow::testing::requestOf(got.back()));
}

class ResolveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    app_ = buildApp(t_.path().string());
    ASSERT_TRUE(app_.error.empty()) << app_.error;
    gateway_ = startService(R"(
extensions:
  bearertokenauth/ci: { token: ci-token }
  symbolstore:
    endpoint: 127.0.0.1:0
    directory: )" + t_.file("store") + R"(
    auth: { authenticator: bearertokenauth/ci }
receivers: { fake/gw: {} }
processors:
  symbolize/gw: { debug_dirs: [], address_kind: elf, symbol_source: symbolstore }
exporters: { fake/gw: {} }
service:
  extensions: [bearertokenauth/ci, symbolstore]
  shutdown_timeout: 1s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines: { profiles: { receivers: [fake/gw], processors: [symbolize/gw], exporters: [fake/gw] } }
)");
    ASSERT_TRUE(gateway_);
    auto* ext = dynamic_cast<SymbolStoreExtension*>(gateway_->extension(ComponentId{"symbolstore", ""}));
    ASSERT_NE(ext, nullptr);
    url_ = "http://127.0.0.1:" + std::to_string(ext->httpPort());
    CommandResult up = run(std::string(PROFLOW_SOURCE_DIR) + "/scripts/upload-symbols --executable --token ci-token " +
                           url_ + " " + app_.unstripped);
    ASSERT_EQ(up.status, 0) << up.output;
    // Downloads need the token too: libdebuginfod clients send the headers of this file.
    headers_ = t_.write("debuginfod-headers", "Authorization: Bearer ci-token\n");
  }

  std::string script() const { return std::string(PROFLOW_SOURCE_DIR) + "/scripts/upload-symbols"; }

  testing::TempDir t_;
  App app_;
  std::unique_ptr<Service> gateway_;
  std::string url_;
  std::string headers_;
};

TEST_F(ResolveTest, GatewayResolvesFromTheStoreInProcessAndAnAgentThroughDebuginfod) {
  const uint64_t address = app_.function_vaddr + 4;
  std::string lines = symbolizeThrough("gw", requestFor(app_.build_id, address));
  EXPECT_NE(lines.find("symbolstore_compute"), std::string::npos) << lines;
  EXPECT_NE(lines.find("app.cc:"), std::string::npos) << lines;
  // In process: the store answered, no HTTP lookup was made.
  EXPECT_EQ(gateway_->metrics().value("proflow_extension_symbolstore_lookups_total",
                                      {{"extension", "symbolstore"}, {"artifact", "debuginfo"}, {"result", "hit"}}),
            0);

  ::setenv("DEBUGINFOD_HEADERS_FILE", headers_.c_str(), 1);
  auto agent = startService(R"(
receivers: { fake/agent: {} }
processors:
  symbolize/agent:
    debug_dirs: []
    address_kind: elf
    debuginfod: { urls: [")" + url_ + R"("], cache_dir: )" + t_.file("agent-cache") + R"(, timeout: 20s }
exporters: { fake/agent: {} }
service:
  shutdown_timeout: 1s
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines: { profiles: { receivers: [fake/agent], processors: [symbolize/agent], exporters: [fake/agent] } }
)");
  ASSERT_TRUE(agent);
  lines = symbolizeThrough("agent", requestFor(app_.build_id, address));
  EXPECT_NE(lines.find("symbolstore_compute"), std::string::npos) << lines;
  EXPECT_NE(lines.find("app.cc:"), std::string::npos) << lines;
  EXPECT_GE(gateway_->metrics().value("proflow_extension_symbolstore_lookups_total",
                                      {{"extension", "symbolstore"}, {"artifact", "debuginfo"}, {"result", "hit"}}),
            1);
}

TEST_F(ResolveTest, DebuginfodFindAndEuAddr2lineResolveThroughTheGateway) {
  const std::string env = "DEBUGINFOD_HEADERS_FILE=" + headers_ + " DEBUGINFOD_URLS=" + url_ +
                          " DEBUGINFOD_TIMEOUT=20 DEBUGINFOD_CACHE_PATH=";
  // Without the token the gateway gives nothing away.
  CommandResult anonymous = run("DEBUGINFOD_URLS=" + url_ + " DEBUGINFOD_TIMEOUT=20 DEBUGINFOD_CACHE_PATH=" +
                                t_.file("cache0") + " debuginfod-find debuginfo " + app_.build_id);
  EXPECT_NE(anonymous.status, 0) << anonymous.output;
  CommandResult found = run(env + t_.file("cache1") + " debuginfod-find debuginfo " + app_.build_id);
  ASSERT_EQ(found.status, 0) << found.output;
  std::string path = found.output.substr(0, found.output.find('\n'));
  // The script uploaded objcopy --only-keep-debug output: the same bytes as the fixture's debug file.
  EXPECT_EQ(testing::readFile(path), testing::readFile(app_.debug));
  EXPECT_EQ(buildIdOf(path), app_.build_id);
  EXPECT_NE(run("readelf -S " + path).output.find(".debug_info"), std::string::npos);
  CommandResult exe = run(env + t_.file("cache1") + " debuginfod-find executable " + app_.build_id);
  ASSERT_EQ(exe.status, 0) << exe.output;
  EXPECT_EQ(testing::readFile(exe.output.substr(0, exe.output.find('\n'))), testing::readFile(app_.stripped));
  CommandResult missing = run(env + t_.file("cache1") + " debuginfod-find debuginfo 0123456789abcdef");
  EXPECT_NE(missing.status, 0);

  // eu-addr2line on the stripped binary finds its DWARF only through the gateway.
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(app_.function_vaddr + 4));
  CommandResult line = run(env + t_.file("cache2") + " eu-addr2line -f -e " + app_.stripped + " " + hex);
  EXPECT_EQ(line.status, 0) << line.output;
  EXPECT_NE(line.output.find("symbolstore_compute"), std::string::npos) << line.output;
  EXPECT_NE(line.output.find("app.cc:"), std::string::npos) << line.output;
  CommandResult offline = run("DEBUGINFOD_URLS= eu-addr2line -f -e " + app_.stripped + " " + hex);
  EXPECT_EQ(offline.output.find("app.cc:"), std::string::npos) << offline.output;
}

TEST_F(ResolveTest, UploadScriptFailsLoudlyOnRefusals) {
  CommandResult r = run(script() + " --token wrong " + url_ + " " + app_.unstripped);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("401"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("wrong"), std::string::npos) << "the token must not be printed: " << r.output;
  const std::string no_id = t_.path().string() + "/no-build-id";
  ASSERT_EQ(run("printf 'int main(void){return 0;}' | gcc -x c -Wl,--build-id=none -o " + no_id + " -").status, 0);
  r = run("PROFLOW_SYMBOLS_TOKEN=ci-token " + script() + " " + url_ + " " + no_id + " " + app_.unstripped);
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("no GNU build id"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("stored " + app_.build_id), std::string::npos) << "the other binary is still uploaded: "
                                                                          << r.output;
}

}  // namespace
}  // namespace proflow::symbolstore_testing
