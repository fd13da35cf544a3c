#include "tests/core/formats/pprof/go_tools.h"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>

namespace proflow::testing {
namespace {

const std::string kSourceDir = std::string(PROFLOW_SOURCE_DIR) + "/tests/core/formats/pprof/testdata/profgen";

std::string quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
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

bool generateGoProfiles(const std::string& dir, std::string* error) {
  std::string out;
  const std::string bin = dir + "/profgen";
  // External linking (gcc) lets the linker write a .note.gnu.build-id, which Go's runtime then puts
  // in the profile's mapping.
  const std::string ldflags = std::string("-linkmode=external -B 0x") + kProfgenBuildId;
  if (std::string failed = goBuild(kSourceDir, bin, ldflags); !failed.empty()) {
    *error = "building testdata/profgen failed (needs gcc for external linking): " + failed;
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
