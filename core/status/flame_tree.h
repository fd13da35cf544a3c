// A call tree summed over a time window: what the flame graph draws and what /api/flamegraph
// returns as JSON or pprof.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace proflow::status {

struct FlameNode {
  std::string name;
  int64_t value = 0;   // total of the window (this frame and its callees)
  double base = 0;     // the comparison window's total, scaled to this window's length
  uint32_t parent = 0;
  std::vector<uint32_t> children;
};

struct FlameTree {
  std::string service, type;     // type: "<sample type>/<unit>", e.g. "cpu/nanoseconds"
  std::vector<FlameNode> nodes;  // nodes[0] is the root ("all"); children follow their parents
  uint64_t samples = 0;          // samples summed into the window
  double seconds = 0;            // how long the window covered (less than asked right after start)
  bool has_base = false;
  double base_seconds = 0;

  FlameTree() { nodes.push_back({"all", 0, 0, 0, {}}); }
  // Self value: the node's value minus its children's.
  int64_t self(uint32_t i) const;
};

// JSON: {"service","type","window_seconds","samples","total","compare_seconds"?, "root":{"n","v","b"?,"c":[...]}}.
// Nodes below `min_share` of the total (in both windows) are left out, so the answer stays readable;
// their value still counts in their parent's.
std::string flameTreeJson(const FlameTree& tree, const std::string& window, const std::string& compare,
                          double min_share = 1e-4);

// A gzipped pprof (perftools.profiles.Profile) with one sample per stack that has a self value.
std::string flameTreePprof(const FlameTree& tree, int64_t time_unix_nano);

}  // namespace proflow::status
