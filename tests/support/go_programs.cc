#include "tests/support/go_programs.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <utility>
#include <mutex>

#include "tests/support/daemon.h"

namespace proflow::testing {
namespace {

const std::string kGoDir = std::string(PROFLOW_BINARY_DIR) + "/tests/go";

// Module mode with go.sum enforced, the chosen toolchain only (GOTOOLCHAIN=local: a go line newer
// than it fails instead of fetching another Go), and the build cache in the build tree. GOFLAGS
// from the caller's environment would change what is built, so it is reset.
std::string goEnv(bool offline) {
  std::filesystem::create_directories(kGoDir);
  return std::string("GO111MODULE=on GOTOOLCHAIN=local GOFLAGS=-mod=readonly GOWORK=off ") +
         (offline ? "GOPROXY=off " : "") + "GOCACHE=" + shellQuote(kGoDir + "/gocache") + " ";
}

// A module with no require line needs nothing from the proxy.
bool hasDependencies(const std::string& module_dir) {
  return std::filesystem::exists(std::filesystem::path(module_dir) / "go.sum");
}

// "1.26.0" -> {1, 26}; {0, 0} when not a version.
std::pair<int, int> majorMinor(const std::string& version) {
  int major = 0, minor = 0;
  if (std::sscanf(version.c_str(), "%d.%d", &major, &minor) != 2) return {0, 0};
  return {major, minor};
}

// The `go` line of module_dir/go.mod ("" when it has none).
std::string wantedGo(const std::string& module_dir) {
  std::ifstream mod(module_dir + "/go.mod");
  std::string line, wanted;
  while (std::getline(mod, line))
    if (line.rfind("go ", 0) == 0) wanted = line.substr(3);
  return wanted;
}

// "go1.26.8" from `go env GOVERSION` of the go command `go`, "" when it does not run.
std::string versionOf(const std::string& go) {
  std::string have;
  if (runCommand({"sh", "-c", "GOTOOLCHAIN=local " + shellQuote(go) + " env GOVERSION 2>/dev/null"}, &have) != 0) return "";
  while (!have.empty() && (have.back() == '\n' || have.back() == ' ')) have.pop_back();
  return have;
}

// The go command that builds module_dir: the one on PATH when it is new enough for the module's go
// line, else the Go toolchain installed at /usr/local/go (where Go's own distribution goes; Debian's
// golang-go, 1.19, may come first on PATH). "" with `why` when neither is new enough.
std::string goFor(const std::string& module_dir, std::string* why) {
  const std::string wanted = wantedGo(module_dir);
  std::string seen;
  for (const std::string go : {"go", "/usr/local/go/bin/go"}) {
    const std::string have = versionOf(go);
    if (have.empty()) continue;
    const std::string number = have.rfind("go", 0) == 0 ? have.substr(2) : have;
    if (majorMinor(number) >= majorMinor(wanted)) return go;
    seen += (seen.empty() ? "" : ", ") + go + " is " + have;
  }
  *why = seen.empty() ? "no go command: neither on PATH nor at /usr/local/go (Debian golang-go, or a Go toolchain)"
                      : module_dir + "/go.mod needs Go " + wanted + " or newer (" + seen + ")";
  return "";
}

}  // namespace

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}


std::string goBuild(const std::string& module_dir, const std::string& output, const std::string& ldflags) {
  std::string why;
  const std::string go = goFor(module_dir, &why);
  if (go.empty()) return why;
  const std::string cmd = "cd " + shellQuote(module_dir) + " && " + goEnv(!hasDependencies(module_dir)) + shellQuote(go) +
                          " build" + (ldflags.empty() ? "" : " -ldflags=" + shellQuote(ldflags)) + " -o " + shellQuote(output) +
                          " .";
  std::string out;
  if (runCommand({"sh", "-c", cmd}, &out) != 0) return "go build in " + module_dir + " failed: " + out;
  return "";
}

std::string goModulesRefused(const std::string& module_dir) {
  static std::mutex mu;
  static std::map<std::string, std::string> answers;
  std::lock_guard lock(mu);
  if (auto it = answers.find(module_dir); it != answers.end()) return it->second;
  std::string answer;
  if (const std::string go = goFor(module_dir, &answer); !go.empty()) {
    std::string out;
    const std::string cmd = "cd " + shellQuote(module_dir) + " && " + goEnv(false) + shellQuote(go) + " mod download";
    if (runCommand({"sh", "-c", cmd}, &out, std::chrono::minutes(3)) != 0)
      answer = "the Go module proxy did not serve the modules pinned in " + module_dir + "/go.mod: " + out;
  }
  answers.emplace(module_dir, answer);
  return answer;
}

std::string pprofToolModule() { return std::string(PROFLOW_SOURCE_DIR) + "/tests/support/go/pprof"; }

std::string pprofTool(std::string* error) {
  const std::string tool = kGoDir + "/pprof";
  if (access(tool.c_str(), X_OK) == 0) return tool;
  if (std::string refused = goModulesRefused(pprofToolModule()); !refused.empty()) {
    *error = refused;
    return "";
  }
  std::string why;
  const std::string go = goFor(pprofToolModule(), &why);
  // Several test processes may start at once: one builds, the others wait on the lock and find it.
  const std::string cmd = "flock " + shellQuote(kGoDir + "/.pprof.lock") + " sh -c " +
                          shellQuote("test -x " + shellQuote(tool) + " || (cd " + shellQuote(pprofToolModule()) + " && " +
                                goEnv(false) + shellQuote(go) + " build -o " + shellQuote(tool + ".tmp") +
                                " github.com/google/pprof && mv " + shellQuote(tool + ".tmp") + " " + shellQuote(tool) + ")");
  std::string out;
  if (runCommand({"sh", "-c", cmd}, &out, std::chrono::minutes(8)) != 0) {
    *error = "building the pprof tool failed: " + out;
    return "";
  }
  return tool;
}

}  // namespace proflow::testing
