#include "tests/core/formats/pprof/go_tools.h"

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>

namespace proflow::testing {
namespace {

const std::string kSourceDir = std::string(PROFLOW_SOURCE_DIR) + "/tests/core/formats/pprof/testdata/profgen";
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
  if (runCommand(shellQuote(bin) + " -dir " + shellQuote(dir) + " -cpu 1500ms", &out) != 0) {
    *error = "running profgen failed: " + out;
    return false;
  }
  return true;
}

std::string pprofRaw(const std::string& tool, const std::string& file, std::string* error) {
  std::string out;
  const std::string dir = std::filesystem::path(file).parent_path().string();
  if (runCommand("PPROF_TMPDIR=" + shellQuote(dir) + " PPROF_BINARY_PATH=" + shellQuote(dir) + " " + shellQuote(tool) +
                     " -raw -symbolize=none " + shellQuote(file) + " 2>" + shellQuote(file + ".stderr"),
                 &out, true) != 0) {
    *error = "pprof -raw " + file + " failed: " + out;
    return "";
  }
  return out;
}

}  // namespace proflow::testing
