// Config of the `self` receiver: the daemon's own CPU profile (every thread), sampled in-process.
//
//   receivers:
//     self:
//       interval: 60s            # one batch per interval
//       frequency: 19            # samples per second of a thread's CPU time
//       mode: auto               # auto | perf_event | timer
//       attributes: { deployment.environment: prod }
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "core/config/config_reader.h"

namespace proflow::receivers::self {

struct SelfReceiverConfig {
  config::Duration interval = std::chrono::seconds(60);
  uint32_t frequency = 19;
  std::string mode = "auto";
  std::map<std::string, std::string> attributes;  // resource attributes, over the defaults
  uint32_t max_stack_depth = 127;
  config::Duration thread_scan_interval = std::chrono::seconds(2);
  bool heap = true;

  template <class V>
  void visit(V& v) {
    v.field("interval", interval, "how often a profile is emitted (1s..1h)");
    v.field("frequency", frequency, "samples per second of each thread's CPU time, 1..1000 Hz");
    v.field("mode", mode, "auto (perf_event, else timer), perf_event or timer");
    v.field("attributes", attributes, "resource attributes added to the profiles (over service.name etc.)");
    v.field("max_stack_depth", max_stack_depth, "deepest stack kept (frames), 1..1024");
    v.field("thread_scan_interval", thread_scan_interval, "how often new and exited threads are found (100ms..1m)");
    v.field("heap", heap, "report the allocator's heap figures (mallinfo2) with each profile");
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::receivers::self
