#include "core/status/status_config.h"

namespace proflow::config {

void validateStatusConfig(const StatusConfig& cfg, const std::string& path, FieldLocations& locations,
                          ConfigErrors& errors) {
  const auto& fg = cfg.flamegraph;
  const std::string max = path + ".flamegraph.max_bytes", pending = path + ".flamegraph.max_pending_bytes";
  if (fg.max_bytes.bytes < (64u << 10) || fg.max_bytes.bytes > (4ull << 30))
    errors.add(max, locations[max], "must be between 64KiB and 4GiB, got " + fg.max_bytes.str());
  if (fg.max_pending_bytes.bytes < (1u << 20) || fg.max_pending_bytes.bytes > (4ull << 30))
    errors.add(pending, locations[pending], "must be between 1MiB and 4GiB, got " + fg.max_pending_bytes.str());
  const std::string cpu = path + ".flamegraph.max_cpu";
  if (!(fg.max_cpu > 0 && fg.max_cpu <= 1))
    errors.add(cpu, locations[cpu], "must be in (0, 1] (a share of one core), got " + std::to_string(fg.max_cpu));
}

}  // namespace proflow::config
