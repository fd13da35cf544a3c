#include "tests/e2e/otelcol_peer.h"

#include <gtest/gtest.h>

#include <thread>

#include "tests/support/temp_dir.h"

namespace proflow::testing {
namespace {

const std::string kBuildScript = std::string(PROFLOW_SOURCE_DIR) + "/tests/peers/otelcol/build.sh";
const std::string kBinary = std::string(PROFLOW_BINARY_DIR) + "/tests/peers/otelcol/otelcol-peer";

// The last lines of a build's output: enough to tell why, short enough for a skip reason.
std::string tail(const std::string& text, size_t lines = 6) {
  size_t at = text.size();
  while (at > 0 && text[at - 1] == '\n') --at;
  for (size_t n = 0; at > 0 && n < lines; ++n) {
    const size_t nl = text.rfind('\n', at - 1);
    at = nl == std::string::npos ? 0 : nl;
  }
  return text.substr(at == 0 ? 0 : at + 1);
}

}  // namespace

std::string otelcolPeer(std::string* refused) {
  refused->clear();
  std::string output;
  // A cold build fetches and compiles a few hundred modules: minutes on a small machine. The script
  // keeps the binary, so only the first test of a build tree waits for it.
  const int rc = runCommand({"sh", kBuildScript, kBinary}, &output, std::chrono::minutes(9));
  switch (rc) {
    case 0:
      return kBinary;
    case 3:
      *refused = "the Go module proxy could not be reached to build the OpenTelemetry Collector peer: " + tail(output);
      return "";
    case 4:
      *refused = "no Go toolchain to build the OpenTelemetry Collector peer: " + tail(output);
      return "";
    default:
      ADD_FAILURE() << "building the OpenTelemetry Collector peer (" << kBuildScript << ") failed with " << rc
                    << ":\n"
                    << output;
      return "";
  }
}

std::unique_ptr<Daemon> startOtelcol(const std::string& binary, const std::string& config_path,
                                     const std::string& log_path) {
  return std::make_unique<Daemon>(Daemon::Program{binary},
                                  std::vector<std::string>{"--config", config_path, "--feature-gates",
                                                           kOtelcolProfilesGate},
                                  log_path);
}

bool waitOtelcolReady(Daemon& collector, std::chrono::milliseconds timeout) {
  // The service logs this once every pipeline has started, receivers last.
  return waitFor(
             [&] {
               return !collector.running() ||
                      collector.log().find("Everything is ready") != std::string::npos;
             },
             timeout) &&
         collector.running();
}

}  // namespace proflow::testing
