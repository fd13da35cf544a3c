// The OpenTelemetry Collector as a peer of end-to-end tests (its Go module: tests/peers/otelcol).
// It is built on first use into the build tree, never at configure or default build time, and runs
// as a child process with a config the test writes.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "tests/support/daemon.h"

namespace proflow::testing {

// The Collector's feature gate that lets pipelines carry profiles.
inline constexpr const char* kOtelcolProfilesGate = "service.profilesSupport";

// Path of the Collector peer, built first when missing or older than its sources (parallel tests
// wait for one build). "" with `*refused` set when this machine cannot have it (no Go toolchain, the
// Go module proxy unreachable): the caller skips with PROFLOW_SKIP_IF_REFUSED(refused). A build that
// fails for any other reason fails the current test and also returns "".
std::string otelcolPeer(std::string* refused);

// Runs `binary --config <config_path> --feature-gates service.profilesSupport`, output to `log_path`.
std::unique_ptr<Daemon> startOtelcol(const std::string& binary, const std::string& config_path,
                                     const std::string& log_path);

// Waits until the Collector says its pipelines run (every receiver listens by then); false when it
// exited or the timeout passed.
bool waitOtelcolReady(Daemon& collector, std::chrono::milliseconds timeout = std::chrono::seconds(30));

}  // namespace proflow::testing
