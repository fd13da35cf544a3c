// Config of the `pprof` receiver: pprof pushed over HTTP and/or scraped from Go-style
// /debug/pprof endpoints.
//
//   receivers:
//     pprof:
//       endpoint: 127.0.0.1:4042          # POST /v1/pprof; "" turns the listener off
//       attributes: { deployment.environment: prod }
//       scrape:
//         interval: 15s
//         targets:
//           - endpoint: http://127.0.0.1:6060
//             profiles: [cpu, heap, mutex, block, goroutine]
//             service_name: checkout
//             labels: { team: payments }
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config_reader.h"
#include "core/receiverhelper/http_listener.h"

namespace proflow::receivers::pprof {

struct ScrapeTargetConfig {
  std::string endpoint;  // http://host:port (a path prefix is kept); "host:port" means http://
  std::vector<std::string> profiles = {"cpu", "heap", "mutex", "block", "goroutine"};
  std::string service_name;                   // becomes service.name when set
  std::map<std::string, std::string> labels;  // resource attributes of this target's profiles
  template <class V>
  void visit(V& v) {
    v.field("endpoint", endpoint, "base URL of the Go program serving net/http/pprof");
    v.field("profiles", profiles, "cpu, heap, allocs, mutex, block, goroutine, threadcreate or a /path");
    v.field("service_name", service_name, "service.name of this target's profiles");
    v.field("labels", labels, "resource attributes of this target's profiles");
  }
};

struct ScrapeConfig {
  config::Duration interval = std::chrono::seconds(15);
  // Per-request deadline; 0 = interval + 3s (a CPU profile takes interval - 1s to record).
  config::Duration timeout;
  // Largest random start offset per target, so many agents do not scrape in lockstep; unset = interval.
  std::optional<config::Duration> jitter;
  // Longest CPU recording (seconds=N with N = interval - 1s, capped by this and by timeout - 1s).
  config::Duration max_cpu_duration = std::chrono::seconds(60);
  config::ByteSize max_response_size = config::ByteSize(64ull << 20);  // after decompression
  bool delta = true;            // difference cumulative sample types (alloc_*, contentions, delay)
  int max_delta_keys = 200000;  // distinct stack+labels keys remembered per target and profile
  int max_concurrent_scrapes = 16;  // scrape threads (a CPU scrape holds one for N seconds)
  std::vector<ScrapeTargetConfig> targets;
  template <class V>
  void visit(V& v) {
    v.field("interval", interval, "time between scrapes of each profile");
    v.field("timeout", timeout, "per-request deadline (0 = interval + 3s)");
    v.field("jitter", jitter, "largest random start offset per target (default: interval)");
    v.field("max_cpu_duration", max_cpu_duration, "longest CPU recording per scrape");
    v.field("max_response_size", max_response_size, "largest profile accepted, after decompression");
    v.field("delta", delta, "turn cumulative sample types into deltas between scrapes");
    v.field("max_delta_keys", max_delta_keys, "distinct samples remembered per target and profile");
    v.field("max_concurrent_scrapes", max_concurrent_scrapes, "scrape threads");
    v.field("targets", targets, "programs to scrape");
  }

  std::chrono::milliseconds effectiveTimeout() const;
  std::chrono::milliseconds effectiveJitter() const;
  // N of /debug/pprof/profile?seconds=N (at least 1: Go treats 0 as 30).
  int cpuSeconds() const;
};

// The push listener's endpoint, tls, auth, body and server limits: core/receiverhelper/http_listener.h.
struct PprofReceiverConfig : receiverhelper::HttpListenerConfig {
  PprofReceiverConfig() {
    endpoint = "127.0.0.1:4042";
    max_request_body_size = config::ByteSize(64ull << 20);
  }
  std::map<std::string, std::string> attributes;  // resource attributes of every profile
  std::optional<ScrapeConfig> scrape;

  template <class V>
  void visit(V& v) {
    visitListener(v, "host:port for POST /v1/pprof; empty = no listener");
    v.field("attributes", attributes, "resource attributes added to every profile");
    v.field("scrape", scrape, "pull profiles from /debug/pprof endpoints (present = on)");
  }
  void validate(config::ValidationContext& ctx) const;
};

// The request path (and query) of a profile name in `profiles`: "heap" -> "/debug/pprof/heap", "cpu" ->
// "/debug/pprof/profile?seconds=N"; names starting with '/' are used as given. "" for unknown names.
std::string profilePath(const std::string& name, int cpu_seconds);

// Base URL with a scheme ("host:port" -> "http://host:port") and no trailing '/'.
std::string normalizeTargetUrl(const std::string& endpoint);

}  // namespace proflow::receivers::pprof
