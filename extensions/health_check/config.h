// Config of the `health_check` extension, with the Collector's keys.
//
//   extensions:
//     health_check:
//       endpoint: localhost:13133     # the Collector's default; 0.0.0.0:13133 for probes from the node
//       path: /                       # where the status is answered
//       response_body:                # optional: fixed bodies instead of the JSON status
//         healthy: I'm OK
//         unhealthy: I'm not well
#pragma once

#include <optional>
#include <string>

#include "core/component/http_endpoint.h"
#include "core/config/config_types.h"

namespace proflow::extensions::health_check {

struct ResponseBody {
  std::string healthy;
  std::string unhealthy;

  template <class V>
  void visit(V& v) {
    v.field("healthy", healthy, "body answered with 200");
    v.field("unhealthy", unhealthy, "body answered with 503");
  }
};

// Accepted so that Collector configs load; the Collector documents it as not working as intended.
// Health here is the pipelines' state (see README).
struct CheckCollectorPipeline {
  bool enabled = false;
  config::Duration interval = std::chrono::minutes(5);
  int exporter_failure_threshold = 5;

  template <class V>
  void visit(V& v) {
    v.field("enabled", enabled, "accepted for Collector configs; has no effect (see README)");
    v.field("interval", interval, "accepted for Collector configs; has no effect");
    v.field("exporter_failure_threshold", exporter_failure_threshold, "accepted for Collector configs; has no effect");
  }
};

struct HealthCheckConfig {
  HttpEndpointConfig server{"localhost:13133"};
  std::string path = "/";
  std::optional<ResponseBody> response_body;
  CheckCollectorPipeline check_collector_pipeline;

  template <class V>
  void visit(V& v) {
    server.visit(v);
    v.field("path", path, "URL path the status is answered on");
    v.field("response_body", response_body, "fixed bodies {healthy, unhealthy} instead of the JSON status");
    v.field("check_collector_pipeline", check_collector_pipeline,
            "accepted for Collector configs; has no effect (health is the pipelines' state)");
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::extensions::health_check
