// The env, system, process and k8s detectors with inputs the tests choose.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>

#include "processors/resource_detection/env_detector.h"
#include "processors/resource_detection/k8s_detector.h"
#include "processors/resource_detection/process_detector.h"
#include "processors/resource_detection/system_detector.h"
#include "tests/processors/resource_detection/fake_proc.h"

namespace proflow::processors::resourcedetection {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Detected attributes as key -> value text (arrays as "[a|b]", ints as "i:N").
std::map<std::string, std::string> asMap(const DetectedList& list) {
  std::map<std::string, std::string> out;
  for (const auto& d : list) {
    const auto& v = d.value;
    std::string text;
    if (v.has_array_value()) {
      text = "[";
      for (int i = 0; i < v.array_value().values_size(); ++i)
        text += (i ? "|" : "") + v.array_value().values(i).string_value();
      text += "]";
    } else if (v.has_int_value()) {
      text = "i:" + std::to_string(v.int_value());
    } else {
      text = v.string_value();
    }
    EXPECT_TRUE(out.emplace(d.key, text).second) << "duplicate key " << d.key;
  }
  return out;
}

// A literal with its embedded NULs (the trailing one the compiler adds left out).
template <size_t N>
std::string bytes(const char (&s)[N]) {
  return std::string(s, N - 1);
}

// Sets a variable for the scope of one test.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) { setenv(name, value, 1); }
  ~ScopedEnv() { unsetenv(name_); }

 private:
  const char* name_;
};

TEST(EnvDetector, ParsesMembersTrimmedAndDecoded) {
  std::string error;
  auto parsed = parseResourceAttributes(" deployment.environment = prod ,, team=a%2Cb ,x=1,x=2,empty=", &error);
  ASSERT_TRUE(parsed) << error;
  auto m = asMap(*parsed);
  EXPECT_EQ(m.size(), 4u);
  EXPECT_EQ(m["deployment.environment"], "prod");
  EXPECT_EQ(m["team"], "a,b");
  EXPECT_EQ(m["x"], "2");  // a later duplicate wins
  EXPECT_EQ(m["empty"], "");
}

TEST(EnvDetector, MalformedVariableIsDiscardedWhole) {
  std::string error;
  EXPECT_FALSE(parseResourceAttributes("a=b,novalue,c=d", &error));
  EXPECT_THAT(error, HasSubstr("novalue"));
  EXPECT_FALSE(parseResourceAttributes("a=b,c=%G1", &error));
  EXPECT_THAT(error, HasSubstr("percent"));
  EXPECT_FALSE(parseResourceAttributes("=b", &error));
}

TEST(EnvDetector, ServiceNameVariableWinsOverAttributes) {
  ScopedEnv a("OTEL_RESOURCE_ATTRIBUTES", "service.name=from-attrs,service.version=1.2%2E3");
  ScopedEnv s("OTEL_SERVICE_NAME", "checkout");
  std::string error;
  auto m = asMap(detectEnv(&error));
  EXPECT_EQ(error, "");
  EXPECT_EQ(m["service.name"], "checkout");
  EXPECT_EQ(m["service.version"], "1.2.3");
}

TEST(EnvDetector, MalformedAttributesReportedAndServiceNameKept) {
  ScopedEnv a("OTEL_RESOURCE_ATTRIBUTES", "k=v,broken");
  ScopedEnv s("OTEL_SERVICE_NAME", "checkout");
  std::string error;
  auto m = asMap(detectEnv(&error));
  EXPECT_THAT(error, HasSubstr("OTEL_RESOURCE_ATTRIBUTES ignored"));
  EXPECT_EQ(m.size(), 1u);
  EXPECT_EQ(m["service.name"], "checkout");
}

TEST(SystemDetector, ArchAndOsTypeFollowSemconv) {
  EXPECT_EQ(hostArchFromMachine("x86_64"), "amd64");
  EXPECT_EQ(hostArchFromMachine("aarch64"), "arm64");
  EXPECT_EQ(hostArchFromMachine("i686"), "x86");
  EXPECT_EQ(hostArchFromMachine("armv7l"), "arm32");
  EXPECT_EQ(hostArchFromMachine("ppc64le"), "ppc64");
  EXPECT_EQ(hostArchFromMachine("s390x"), "s390x");
  EXPECT_EQ(hostArchFromMachine("riscv64"), "riscv64");  // not in semconv: passed through
  EXPECT_EQ(osTypeFromSysname("Linux"), "linux");
}

TEST(SystemDetector, MachineIdFromFirstFileThatHasOne) {
  testing::TempDir dir;
  std::string empty = dir.write("empty", "\n\n");
  std::string dbus = dir.write("dbus", "\n0123456789abcdef0123456789abcdef  \n");
  EXPECT_EQ(readMachineId({dir.file("missing"), empty, dbus}), "0123456789abcdef0123456789abcdef");
  EXPECT_EQ(readMachineId({dir.file("missing")}), "");
}

TEST(SystemDetector, DetectsThisMachine) {
  testing::TempDir dir;
  SystemConfig cfg;
  cfg.machine_id_files = {dir.file("missing"), dir.write("machine-id", "feedface\n")};
  auto m = asMap(detectSystem(cfg));
  char host[256] = {};
  ASSERT_EQ(gethostname(host, sizeof(host) - 1), 0);
  struct utsname u {};
  ASSERT_EQ(uname(&u), 0);
  EXPECT_EQ(m["host.name"], host);
  EXPECT_EQ(m["host.id"], "feedface");
  EXPECT_EQ(m["os.type"], "linux");
  EXPECT_EQ(m["host.arch"], hostArchFromMachine(u.machine));
  EXPECT_NE(m["host.arch"], "x86_64");
}

TEST(ProcessDetector, CmdlineAndStatusParsing) {
  EXPECT_THAT(splitCmdline(bytes("/bin/app\0-v\0\0x\0")), ElementsAre("/bin/app", "-v", "", "x"));
  EXPECT_THAT(splitCmdline("rewritten title"), ElementsAre("rewritten title"));
  EXPECT_TRUE(splitCmdline("").empty());
  std::string status = "Name:\tapp\nPPid:\t17\nUid:\t1000\t1001\t1000\t1000\n";
  EXPECT_EQ(statusField(status, "Uid"), "1000");
  EXPECT_EQ(statusField(status, "PPid"), "17");
  EXPECT_EQ(statusField(status, "Gid"), "");
}

TEST(ProcessDetector, ReadsAFakeProcess) {
  testing::FakeProc proc;
  proc.add("4242", {.exe = "/opt/app/bin/server (deleted)",
                    .comm = "server",
                    .cmdline = bytes("/opt/app/bin/server\0--port\0" "8080\0"),
                    .status = "Name:\tserver\nUid:\t0\t0\t0\t0\nPPid:\t1\n"});
  ProcessConfig cfg;
  cfg.command_line = cfg.command_args = true;
  auto m = asMap(detectProcess(proc.root(), 4242, cfg));
  EXPECT_EQ(m["process.executable.path"], "/opt/app/bin/server");
  EXPECT_EQ(m["process.executable.name"], "server");
  EXPECT_EQ(m["process.command"], "/opt/app/bin/server");
  EXPECT_EQ(m["process.command_line"], "/opt/app/bin/server --port 8080");
  EXPECT_EQ(m["process.command_args"], "[/opt/app/bin/server|--port|8080]");
  EXPECT_EQ(m["process.owner"], "root");
  EXPECT_EQ(m["process.parent_pid"], "i:1");
}

TEST(ProcessDetector, OptionsAndMissingPieces) {
  testing::FakeProc proc;
  proc.add("7", {.exe = "/usr/bin/python3.11", .cmdline = bytes("python3\0app.py\0"),
                 .status = "Uid:\t3999999\t0\t0\t0\n"});
  ProcessConfig cfg;
  cfg.command_args = true;  // command_line stays off, as by default
  auto m = asMap(detectProcess(proc.root(), 7, cfg));
  EXPECT_EQ(m["process.executable.name"], "python3.11");  // no comm: the exe's base name
  EXPECT_EQ(m.count("process.command_line"), 0u);
  EXPECT_EQ(m["process.command_args"], "[python3|app.py]");
  EXPECT_EQ(m["process.owner"], "3999999");  // unknown user: the number
  EXPECT_EQ(m.count("process.parent_pid"), 0u);
  EXPECT_TRUE(detectProcess(proc.root(), 8, cfg).empty());  // gone
  EXPECT_TRUE(detectProcess(proc.root(), 0, cfg).empty());
}

TEST(K8sDetector, DownwardApiMapFile) {
  auto m = parseDownwardApiMap("app=\"checkout\"\ntier=\"web \\\"edge\\\"\"\nbad=unquoted\nmulti=\"a\\nb\"\n");
  EXPECT_EQ(m.size(), 3u);
  EXPECT_EQ(m["app"], "checkout");
  EXPECT_EQ(m["tier"], "web \"edge\"");
  EXPECT_EQ(m["multi"], "a\nb");
}

TEST(K8sDetector, EnvironmentVariables) {
  ScopedEnv pod("K8S_POD_NAME", "checkout-7d9f");
  ScopedEnv ns("K8S_POD_NAMESPACE", "shop");  // the second default name for the namespace
  ScopedEnv node("MY_NODE", "node-3");
  ScopedEnv uid("K8S_POD_UID", "0e5f2c1a-1111-2222-3333-444455556666");
  K8sConfig cfg;
  cfg.node_name_env = {"MY_NODE"};
  auto m = asMap(detectK8s(cfg));
  EXPECT_EQ(m["k8s.pod.name"], "checkout-7d9f");
  EXPECT_EQ(m["k8s.namespace.name"], "shop");
  EXPECT_EQ(m["k8s.node.name"], "node-3");
  EXPECT_EQ(m["k8s.pod.uid"], "0e5f2c1a-1111-2222-3333-444455556666");
  EXPECT_EQ(m.count("k8s.container.name"), 0u);
}

TEST(K8sDetector, DownwardApiVolumeFillsWhatVariablesLack) {
  ScopedEnv pod("K8S_POD_NAME", "from-env");
  testing::TempDir dir;
  dir.write("name", "from-file\n");
  dir.write("namespace", "shop");
  dir.write("uid", "abcd-ef\n");
  dir.write("labels", "app=\"checkout\"\nversion=\"v2\"\n");
  dir.write("annotations", "note=\"hi\"\n");
  K8sConfig cfg;
  cfg.downward_api_path = dir.path().string();
  auto m = asMap(detectK8s(cfg));
  EXPECT_EQ(m["k8s.pod.name"], "from-env");
  EXPECT_EQ(m["k8s.namespace.name"], "shop");
  EXPECT_EQ(m["k8s.pod.uid"], "abcd-ef");
  EXPECT_EQ(m["k8s.pod.label.app"], "checkout");
  EXPECT_EQ(m["k8s.pod.label.version"], "v2");
  EXPECT_EQ(m.count("k8s.pod.annotation.note"), 0u);  // annotations are opt-in
  cfg.pod_annotations = true;
  cfg.pod_labels = false;
  m = asMap(detectK8s(cfg));
  EXPECT_EQ(m["k8s.pod.annotation.note"], "hi");
  EXPECT_EQ(m.count("k8s.pod.label.app"), 0u);
}

}  // namespace
}  // namespace proflow::processors::resourcedetection
