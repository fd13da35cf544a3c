#include "tests/core/formats/pprof/go_tools.h"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>

namespace proflow::testing {
namespace {

const std::string kToolsDir = std::string(PROFLOW_BINARY_DIR) + "/tests/core/formats/pprof/tools";
const std::string kSourceDir = std::string(PROFLOW_SOURCE_DIR) + "/tests/core/formats/pprof/testdata/profgen";

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Offline Go: GOPATH mode over Debian's packaged sources, no proxy, cache kept in the build tree.
std::string goEnv() {
  return "GO111MODULE=off GOPATH=/usr/share/gocode GOPROXY=off GOFLAGS= GOCACHE=" + quote(kToolsDir + "/gocache") +
         " ";
}

}  // namespace

int runCommand(const std::string& cmd, std::string* output, bool stdout_only) {
  output->clear();
  FILE* p = popen((cmd + (stdout_only ? "" : " 2>&1")).c_str(), "r");
  if (p == nullptr) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) output->append(buf, n);
  int status = pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string pprofTool(std::string* error) {
  const std::string tool = kToolsDir + "/pprof";
  if (std::filesystem::exists(tool)) return tool;
  std::filesystem::create_directories(kToolsDir);
  std::string out;
  if (runCommand("command -v go", &out) != 0) {
    *error = "the go tool is missing (install Debian golang-go)";
    return "";
  }
  // Several test processes may start at once: one builds, the others wait on the lock.
  std::string cmd = "flock " + quote(kToolsDir + "/.lock") + " sh -c " +
                    quote("test -x " + tool + " || (" + goEnv() + "go build -o " + tool +
                          ".tmp github.com/google/pprof && mv " + tool + ".tmp " + tool + ")");
  if (runCommand(cmd, &out) != 0) {
    *error = "building the pprof tool failed (needs Debian golang-github-google-pprof-dev): " + out;
    return "";
  }
  return tool;
}

bool generateGoProfiles(const std::string& dir, std::string* error) {
  std::string out;
  const std::string bin = dir + "/profgen";
  std::filesystem::create_directories(kToolsDir);
  // External linking (gcc) lets the linker write a .note.gnu.build-id, which Go's runtime then puts
  // in the profile's mapping.
  const std::string ldflags = std::string("-linkmode=external -B 0x") + kProfgenBuildId;
  if (runCommand("cd " + quote(kSourceDir) + " && " + goEnv() + "go build -ldflags=" + quote(ldflags) + " -o " +
                     quote(bin) + " .",
                 &out) != 0) {
    *error = "building testdata/profgen failed (needs Debian golang-go and gcc): " + out;
    return false;
  }
  if (runCommand(quote(bin) + " -dir " + quote(dir) + " -cpu 1500ms", &out) != 0) {
    *error = "running profgen failed: " + out;
    return false;
  }
  return true;
}

std::string pprofRaw(const std::string& tool, const std::string& file, std::string* error) {
  std::string out;
  const std::string dir = std::filesystem::path(file).parent_path().string();
  if (runCommand("PPROF_TMPDIR=" + quote(dir) + " PPROF_BINARY_PATH=" + quote(dir) + " " + quote(tool) +
                     " -raw -symbolize=none " + quote(file) + " 2>" + quote(file + ".stderr"),
                 &out, true) != 0) {
    *error = "pprof -raw " + file + " failed: " + out;
    return "";
  }
  return out;
}

}  // namespace proflow::testing
