#include "tests/extensions/symbolstore/test_binaries.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sys/wait.h>

#include "cmd/proflow/builtins.h"
#include "core/config/service_config.h"
#include "tests/support/fake_components.h"

namespace proflow::symbolstore_testing {

namespace {

constexpr const char* kAppSource = R"(#include <cstdio>
extern "C" __attribute__((noinline)) int symbolstore_compute(int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += i * i % 7;
  return sum;
}
int main(int argc, char**) { std::printf("%d\n", symbolstore_compute(argc * 1000)); }
)";

}  // namespace

CommandResult run(const std::string& command) {
  CommandResult r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string buildIdOf(const std::string& path) {
  CommandResult r = run("readelf -n " + path);
  std::smatch m;
  static const std::regex re("Build ID: ([0-9a-f]+)");
  return std::regex_search(r.output, m, re) ? m[1].str() : "";
}

App buildApp(const std::string& dir) {
  App a;
  const std::string src = dir + "/app.cc";
  std::ofstream(src) << kAppSource;
  a.unstripped = dir + "/app";
  a.debug = dir + "/app.debug";
  a.stripped = dir + "/app.stripped";
  for (const std::string& cmd :
       {"g++ -g -O1 -Wl,--build-id -o " + a.unstripped + " " + src,
        "objcopy --only-keep-debug " + a.unstripped + " " + a.debug, "strip --strip-all -o " + a.stripped + " " + a.unstripped}) {
    CommandResult r = run(cmd);
    if (r.status != 0) {
      a.error = cmd + ": " + r.output;
      return a;
    }
  }
  a.build_id = buildIdOf(a.unstripped);
  CommandResult nm = run("nm " + a.unstripped);
  std::smatch m;
  static const std::regex re("([0-9a-f]+) T symbolstore_compute");
  if (!std::regex_search(nm.output, m, re)) {
    a.error = "no symbolstore_compute in nm output: " + nm.output;
    return a;
  }
  a.function_vaddr = std::stoull(m[1].str(), nullptr, 16);
  a.function_line = 2;
  if (a.build_id.empty()) a.error = "no build id";
  return a;
}

std::string buildTiny(const std::string& dir, int n) {
  const std::string out = dir + "/tiny" + std::to_string(n);
  CommandResult r = run("printf 'int main(void){return " + std::to_string(n) + ";}' | gcc -x c -Wl,--build-id -o " +
                        out + " -");
  return r.status == 0 ? out : "";
}

std::unique_ptr<Service> startService(const std::string& yaml) {
  Registry registry;
  EXPECT_TRUE(registerBuiltins(registry).isOk());
  testing::registerFakes(registry);
  config::ServiceConfig cfg;
  std::string errors;
  Status s = config::loadServiceConfigText(yaml, "test.yaml", registry, &cfg, &errors);
  EXPECT_TRUE(s.isOk()) << errors;
  if (!s.isOk()) return nullptr;
  auto service = std::make_unique<Service>(std::move(cfg));
  s = service->start();
  EXPECT_TRUE(s.isOk()) << s.toString();
  if (!s.isOk()) return nullptr;
  return service;
}

std::string configErrors(const std::string& yaml) {
  Registry registry;
  EXPECT_TRUE(registerBuiltins(registry).isOk());
  config::ServiceConfig cfg;
  std::string errors;
  Status s = config::loadServiceConfigText(yaml, "test.yaml", registry, &cfg, &errors);
  return s.isOk() ? std::string() : errors;
}

}  // namespace proflow::symbolstore_testing
