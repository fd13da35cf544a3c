// The proflow command line as a user meets it.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <sstream>

#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using testing::runCommand;

TEST(Cli, PrintsVersionAndComponents) {
  std::string out;
  ASSERT_EQ(runCommand({testing::proflowBinary(), "--version"}, &out), 0);
  EXPECT_EQ(out.rfind("proflow ", 0), 0u) << out;
  ASSERT_EQ(runCommand({testing::proflowBinary(), "components"}, &out), 0);
  for (const char* expected : {"receivers:", "processors:", "exporters:", "  otlp ", "  file ", "  debug "})
    EXPECT_NE(out.find(expected), std::string::npos) << expected << " missing in:\n" << out;
}

TEST(Cli, ComponentsPrintsTheOptionsOfAType) {
  std::string out;
  ASSERT_EQ(runCommand({testing::proflowBinary(), "components", "memory_limiter"}, &out), 0) << out;
  for (const char* expected :
       {"processor memory_limiter: ", "  limit_mib (integer >= 0, default 0)\n      hard limit of the process RSS in MiB",
        "  check_interval (duration, default 1s)\n      how often RSS is measured"})
    EXPECT_NE(out.find(expected), std::string::npos) << expected << " missing in:\n" << out;
  // Nested sections and lists of sections, under the same spelling as in YAML.
  ASSERT_EQ(runCommand({testing::proflowBinary(), "components", "--help", "attributes"}, &out), 0) << out;
  EXPECT_NE(out.find("  actions[].pattern (string)\n      regex over keys"), std::string::npos) << out;
  EXPECT_NE(out.find("  include.match_type (string, default \"strict\")"), std::string::npos) << out;
  // A type that is both a receiver and an exporter shows both.
  ASSERT_EQ(runCommand({testing::proflowBinary(), "components", "otlp"}, &out), 0) << out;
  EXPECT_NE(out.find("receiver otlp: "), std::string::npos) << out;
  EXPECT_NE(out.find("exporter otlp_grpc: "), std::string::npos) << out;  // its deprecated alias
  EXPECT_NE(out.find("  deprecated aliases: otlp\n"), std::string::npos) << out;
  EXPECT_NE(out.find("  protocols.grpc.endpoint (string"), std::string::npos) << out;
  EXPECT_EQ(runCommand({testing::proflowBinary(), "components", "nonesuch"}, &out), 1);
  EXPECT_NE(out.find("no component type 'nonesuch'"), std::string::npos) << out;
}

// A "billion laughs" document would need tens of GB once expanded; validate must refuse it with
// a bounded amount of memory. Measured as the peak RSS of the child process.
TEST(Cli, ValidateRefusesAnAliasBombWithBoundedMemory) {
  std::string doc = "receivers:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i <= 9; ++i) {
    doc += "  l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int j = 0; j < 9; ++j) doc += (j ? ", *l" : "*l") + std::to_string(i - 1);
    doc += "]\n";
  }
  testing::TempDir dir;
  auto bomb = dir.write("bomb.yaml", doc);
  std::string out;
  EXPECT_EQ(runCommand({testing::proflowBinary(), "validate", "--config", bomb}, &out), 1);
  EXPECT_NE(out.find(bomb + ":6:"), std::string::npos) << out;
  EXPECT_NE(out.find("(an alias bomb?)"), std::string::npos) << out;
  rusage usage{};
  ASSERT_EQ(getrusage(RUSAGE_CHILDREN, &usage), 0);
  EXPECT_LT(usage.ru_maxrss, 512 * 1024) << "peak RSS of proflow validate in KiB";
}

TEST(Cli, ValidateListsEveryErrorWithLocations) {
  testing::TempDir dir;
  auto a = dir.write("a.yaml", R"(receivers:
  otlp:
    protocols:
      grpc: { endpoint: "not-an-endpoint" }
exporters:
  file: { path: out.jsonl, format: xml }
)");
  auto b = dir.write("b.yaml", R"(service:
  pipelines:
    profiles:
      receivers: [otlp]
      exporters: [file, otlp/nowhere]
  telemetry: { logs: { level: loud } }
)");
  std::string out;
  int rc = runCommand({testing::proflowBinary(), "validate", "--config", a, "--config", b}, &out);
  EXPECT_NE(rc, 0);
  EXPECT_NE(out.find(a + ":4:15: receivers.otlp.protocols.grpc.endpoint: invalid endpoint"), std::string::npos) << out;
  EXPECT_NE(out.find(a + ":6:28: exporters.file.format: unknown format 'xml'"), std::string::npos) << out;
  EXPECT_NE(out.find(b + ":5:25: service.pipelines.profiles.exporters[1]: exporter 'otlp/nowhere' is not defined"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("unknown log level 'loud'"), std::string::npos) << out;
}

TEST(Cli, ValidateOpensNoSockets) {
  // Occupy a port, then validate a config that listens on it: validate must still pass.
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  listen(fd, 1);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  const int port = ntohs(addr.sin_port);

  testing::TempDir dir;
  auto cfg = dir.write("c.yaml", "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:" + std::to_string(port) +
                                     " } } } }\nexporters: { debug: {} }\nservice:\n  telemetry: { metrics: { address: "
                                     "127.0.0.1:" + std::to_string(port) +
                                     " } }\n  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }\n");
  std::string out;
  EXPECT_EQ(runCommand({testing::proflowBinary(), "validate", "--config", cfg}, &out), 0) << out;
  // Running it for real fails cleanly because the port is taken.
  EXPECT_EQ(runCommand({testing::proflowBinary(), "--config", cfg}, &out), 1) << out;
  EXPECT_NE(out.find(std::to_string(port)), std::string::npos) << out;
  close(fd);
}

TEST(Cli, UnknownOptionIsAUsageError) {
  std::string out;
  EXPECT_EQ(runCommand({testing::proflowBinary(), "--colour"}, &out), 2);
  EXPECT_NE(out.find("unknown option --colour"), std::string::npos) << out;
}

// An option another command takes is refused by a command that does not, naming both.
TEST(Cli, AnOptionOfAnotherCommandIsRefused) {
  testing::TempDir dir;
  const std::string cfg = dir.write("p.yaml", "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:0 } } } }\nexporters: { debug: {} }\n"
                                              "service: { pipelines: { profiles: { receivers: [otlp], exporters: [debug] } } }\n");
  std::string out;
  EXPECT_EQ(runCommand({testing::proflowBinary(), "validate", "--config", cfg, "--to", "folded"}, &out), 2);
  EXPECT_NE(out.find("option --to does not apply to 'proflow validate' (it takes --config, --set)"), std::string::npos) << out;
  EXPECT_EQ(runCommand({testing::proflowBinary(), "validate", "--config", cfg, "--symbolize"}, &out), 2);
  EXPECT_NE(out.find("option --symbolize does not apply to 'proflow validate'"), std::string::npos) << out;
  EXPECT_EQ(runCommand({testing::proflowBinary(), "--config", cfg, "--address", "127.0.0.1:1"}, &out), 2);
  EXPECT_NE(out.find("option --address does not apply to 'proflow (run)'"), std::string::npos) << out;
  EXPECT_EQ(runCommand({testing::proflowBinary(), "convert", "a", "b", "--config", cfg}, &out), 2);
  EXPECT_NE(out.find("option --config does not apply to 'proflow convert'"), std::string::npos) << out;
  EXPECT_EQ(runCommand({testing::proflowBinary(), "components", "--watch-config"}, &out), 2);
  EXPECT_NE(out.find("option --watch-config does not apply to 'proflow components'"), std::string::npos) << out;
  // What a command does take still works.
  EXPECT_EQ(runCommand({testing::proflowBinary(), "validate", "--config", cfg}, &out), 0) << out;
}

// The README's command line names every option and input format `proflow --help` gives convert.
TEST(Cli, TheReadmeListsEveryConvertOption) {
  std::string help;
  ASSERT_EQ(runCommand({testing::proflowBinary(), "--help"}, &help), 0);
  const size_t from = help.find("proflow convert"), to = help.find("proflow health");
  ASSERT_TRUE(from != std::string::npos && to != std::string::npos && from < to) << help;
  const std::string usage = help.substr(from, to - from);
  const std::string readme = testing::readFile(std::string(PROFLOW_SOURCE_DIR) + "/README.md");
  const size_t section = readme.find("## Command line");
  ASSERT_NE(section, std::string::npos);
  const size_t start = readme.find("proflow convert", section), end = readme.find("proflow health", section);
  ASSERT_TRUE(start != std::string::npos && end != std::string::npos && start < end);
  const std::string line = readme.substr(start, end - start);
  std::vector<std::string> names;
  for (size_t i = usage.find("--"); i != std::string::npos; i = usage.find("--", i + 2))
    names.push_back(usage.substr(i, usage.find_first_not_of("abcdefghijklmnopqrstuvwxyz-", i + 2) - i));
  ASSERT_GE(names.size(), 8u) << usage;
  for (const std::string& name : names) EXPECT_NE(line.find(name), std::string::npos) << name << " missing in:\n" << line;
  for (const char* input : {"perf.data", "perf script", "perf-script", "folded", "otlp_json", "otlp_proto", "jfr"})
    EXPECT_NE(line.find(input), std::string::npos) << input << " missing in:\n" << line;
}

// convert's options that only mean something with another one are refused without it.
TEST(Cli, ConvertRefusesOptionsThatWouldBeIgnored) {
  testing::TempDir dir;
  const std::string in = dir.write("in.folded", "main;work 3\n");
  std::string out;
  EXPECT_EQ(runCommand({testing::proflowBinary(), "convert", in, dir.file("o"), "--from", "pdf"}, &out), 2);
  EXPECT_NE(out.find("unknown input format 'pdf' (--from)"), std::string::npos) << out;
  EXPECT_EQ(runCommand({testing::proflowBinary(), "convert", in, dir.file("o"), "--sample-type", "cpu"}, &out), 2);
  EXPECT_NE(out.find("--sample-type picks the sample type written as folded stacks: it needs --to folded"),
            std::string::npos) << out;
  EXPECT_EQ(runCommand({testing::proflowBinary(), "convert", in, dir.file("o"), "--debug-dir", "/tmp"}, &out), 2);
  EXPECT_NE(out.find("--debug-dir tells --symbolize where to look: it needs --symbolize"), std::string::npos) << out;
  EXPECT_EQ(runCommand({testing::proflowBinary(), "convert", in, dir.file("o.folded"), "--from", "folded", "--to",
                        "folded", "--sample-type", "samples"},
                       &out),
            0)
      << out;
  EXPECT_EQ(testing::readFile(dir.file("o.folded")), "main;work 3\n");
}

}  // namespace
}  // namespace proflow

namespace proflow {
namespace {

// Config sources as the Collector takes them: files, env: and yaml: sources merged in order, --set
// over them (or over the embedded config), and a bad --set reported at its source.
TEST(Cli, ConfigSourcesAndSetFlags) {
  testing::TempDir dir;
  const std::string cfg = dir.write("p.yaml", "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:0 } } } }\n"
                                              "exporters: { debug: {} }\nprocessors: { batch: {} }\n"
                                              "service: { pipelines: { profiles: { receivers: [otlp], exporters: [debug] } } }\n");
  const std::string bin = testing::proflowBinary();
  std::string out;
  EXPECT_EQ(testing::runCommand({bin, "validate", "--config", cfg, "--set", "processors::batch::timeout=2s", "--set",
                                 "service::pipelines::profiles::processors=[batch]"},
                                &out),
            0)
      << out;
  EXPECT_EQ(testing::runCommand(
                {bin, "validate", "--config", "file:" + cfg, "--set", "exporters::debug::verbosity=loud"}, &out),
            1);
  EXPECT_NE(out.find("unknown verbosity 'loud'"), std::string::npos) << out;
  EXPECT_NE(out.find("yaml:exporters::debug::verbosity: loud"), std::string::npos) << "names the source: " << out;
  // Over the embedded default config.
  EXPECT_EQ(testing::runCommand({bin, "validate", "--set", "exporters::debug::verbosity=detailed"}, &out), 0) << out;
  EXPECT_EQ(testing::runCommand({bin, "validate", "--set", "exporters::debug::verbosity=loud"}, &out), 1) << out;
  // A whole config from the environment, and one in yaml: form.
  setenv("PROFLOW_CLI_TEST_CONFIG", testing::readFile(cfg).c_str(), 1);
  EXPECT_EQ(testing::runCommand({bin, "validate", "--config", "env:PROFLOW_CLI_TEST_CONFIG"}, &out), 0) << out;
  unsetenv("PROFLOW_CLI_TEST_CONFIG");
  EXPECT_EQ(testing::runCommand({bin, "validate", "--config", "env:PROFLOW_CLI_TEST_CONFIG"}, &out), 1) << out;
  EXPECT_EQ(testing::runCommand({bin, "validate", "--config", cfg, "--config", "yaml:processors::batch::timeout: 1s"},
                                &out),
            0)
      << out;
  EXPECT_EQ(testing::runCommand({bin, "validate", "--config", cfg, "--set", "no-value"}, &out), 2);
  EXPECT_NE(out.find("--set wants KEY=VALUE"), std::string::npos) << out;
}

// Every config shipped with proflow must stay valid as components change.
TEST(Cli, ShippedConfigsValidate) {
  std::vector<std::string> configs;
  for (const auto& dir : {"config", "docker"})
    for (const auto& e : std::filesystem::directory_iterator(std::string(PROFLOW_SOURCE_DIR) + "/" + dir))
      if (e.path().extension() == ".yaml") configs.push_back(e.path().string());
  ASSERT_GE(configs.size(), 3u);
  // A shipped config may name files a deployment mounts (an htpasswd secret): validate reads them as
  // start-up would, and their absence on this machine is the one error tolerated.
  for (const auto& c : configs) {
    std::string out;
    EXPECT_EQ(testing::validateShippedConfig(c, &out), 0) << c << ":\n" << out;
  }
  std::string out;
  EXPECT_EQ(testing::runCommand({testing::proflowBinary(), "validate"}, &out), 0) << "embedded config:\n" << out;
}

}  // namespace
}  // namespace proflow
