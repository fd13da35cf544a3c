// service.telemetry.status: the status page on the telemetry endpoint (GET /, /api/*) and the
// in-memory flame graph tap that feeds it (core/status/README.md).
//
//   service:
//     telemetry:
//       status:
//         enabled: true
//         flamegraph: { enabled: true, max_bytes: 16MiB, max_pending_bytes: 32MiB, max_cpu: 0.05 }
#pragma once

#include "core/config/config_errors.h"
#include "core/config/config_reader.h"
#include "core/config/config_types.h"

namespace proflow::config {

struct FlameGraphConfig {
  bool enabled = true;
  ByteSize max_bytes = 16_MiB;          // stacks, names and per-window values kept for 15 minutes
  ByteSize max_pending_bytes = 32_MiB;  // batches waiting for the aggregation thread (shared, not copied)
  double max_cpu = 0.05;                // share of one core the aggregation may use
  template <class V>
  void visit(V& v) {
    v.field("enabled", enabled, "keep what passed through the pipelines for the live flame graph");
    v.field("max_bytes", max_bytes, "memory cap of the flame graph data; samples over it are dropped and counted");
    v.field("max_pending_bytes", max_pending_bytes,
            "batches waiting to be aggregated; beyond it the tap skips batches (counted) instead of holding them");
    v.field("max_cpu", max_cpu,
            "share of one core the aggregation may use (0.05 = 5%); beyond it batches are skipped (counted), so a "
            "busy gateway's flame graph shows a sample of its traffic");
  }
};

struct StatusConfig {
  bool enabled = true;  // GET / (HTML) and GET /api/status, /api/flamegraph, /api/flamegraph/series
  FlameGraphConfig flamegraph;
  template <class V>
  void visit(V& v) {
    v.field("enabled", enabled, "serve the status page and its JSON API on the telemetry endpoint");
    v.field("flamegraph", flamegraph);
  }
};

// Range checks, each error at the field's file:line.
void validateStatusConfig(const StatusConfig& cfg, const std::string& path, FieldLocations& locations,
                          ConfigErrors& errors);

}  // namespace proflow::config
