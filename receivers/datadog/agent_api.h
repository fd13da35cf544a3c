// The parts of the Datadog Agent's trace-agent API that proflow answers itself when there is no
// `forward_to` (brokers-auth-metrics.md §E):
// - `GET /info`: the Agent's JSON (tab-indented, no Content-Type), with `/profiling/v1/input` among the
//   endpoints so tracers enable profile uploads, `version` "<proflow version>-proflow", no feature flags;
// - the other paths tracers send to once they have read /info (traces, stats, telemetry, ...): answered
//   like the Agent (traces `{"rate_by_service":{}}`, v0.3 "OK", others `{}`), counted, and dropped.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace proflow::receivers::datadog {

inline constexpr std::string_view kProfilingPath = "/profiling/v1/input";

// A path (or prefix, ending in '*') the receiver answers and drops without forward_to.
struct DroppedPath {
  std::string_view path;
  std::string_view body;     // the Agent's answer body
  std::string_view content_type;
};

const std::vector<DroppedPath>& droppedPaths();

// The /info body for an Agent listening on `port`.
std::string infoBody(int port, size_t max_request_bytes);

}  // namespace proflow::receivers::datadog
