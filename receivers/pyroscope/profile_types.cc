#include "receivers/pyroscope/profile_types.h"

#include <array>

namespace proflow::receivers::pyroscope {
namespace {

struct Suffix {
  std::string_view suffix;
  LegacyType type;
};

constexpr LegacyType kCpu{"process_cpu", "cpu", "nanoseconds", "cpu", "nanoseconds", true};
constexpr LegacyType kWall{"wall", "wall", "nanoseconds", "wall", "nanoseconds", true};

constexpr LegacyType memory(std::string_view type, std::string_view unit) {
  return {"memory", type, unit, "space", "bytes", false};
}

constexpr std::array kSuffixes = {
    Suffix{"cpu", kCpu},
    Suffix{"itimer", kCpu},
    Suffix{"wall", kWall},
    Suffix{"seconds", kWall},
    Suffix{"nanoseconds", kWall},
    Suffix{"microseconds", kWall},
    Suffix{"milliseconds", kWall},
    Suffix{"inuse_objects", memory("inuse_objects", "count")},
    Suffix{"inuse_space", memory("inuse_space", "bytes")},
    Suffix{"alloc_objects", memory("alloc_objects", "count")},
    Suffix{"alloc_space", memory("alloc_space", "bytes")},
    Suffix{"alloc_in_new_tlab_objects", memory("alloc_in_new_tlab_objects", "count")},
    Suffix{"alloc_in_new_tlab_bytes", memory("alloc_in_new_tlab_bytes", "bytes")},
    Suffix{"alloc_outside_tlab_objects", memory("alloc_outside_tlab_objects", "count")},
    Suffix{"alloc_outside_tlab_bytes", memory("alloc_outside_tlab_bytes", "bytes")},
    Suffix{"live", memory("live", "count")},
    Suffix{"bytes", memory("space", "bytes")},
    Suffix{"goroutines", {"goroutines", "goroutine", "count", "goroutine", "count", false}},
    Suffix{"mutex_count", {"mutex", "contentions", "count", "contentions", "count", false}},
    Suffix{"mutex_duration", {"mutex", "delay", "nanoseconds", "contentions", "count", false}},
    Suffix{"lock_count", {"mutex", "contentions", "count", "contentions", "count", false}},
    Suffix{"lock_duration", {"mutex", "delay", "nanoseconds", "contentions", "count", false}},
    Suffix{"block_count", {"block", "contentions", "count", "contentions", "count", false}},
    Suffix{"block_duration", {"block", "delay", "nanoseconds", "contentions", "count", false}},
    Suffix{"exceptions", {"exceptions", "exceptions", "count", "exceptions", "count", false}},
};

}  // namespace

Status legacyTypeFor(std::string_view app_name, std::string_view units, LegacyType* out, std::string* service_name) {
  const size_t dot = app_name.rfind('.');
  if (dot == std::string_view::npos) {
    *service_name = std::string(app_name);
    if (units == "objects") *out = memory("objects", "count");
    else if (units == "bytes") *out = memory("space", "bytes");
    else *out = kCpu;
    return Status::ok();
  }
  const std::string_view suffix = app_name.substr(dot + 1);
  for (const auto& s : kSuffixes)
    if (s.suffix == suffix) {
      *out = s.type;
      *service_name = std::string(app_name.substr(0, dot));
      return Status::ok();
    }
  return Status::invalid("unknown profile type '" + std::string(suffix) +
                         "' (folded uploads take their type from the name's last .suffix, e.g. app.cpu, "
                         "app.alloc_space, app.wall)");
}

std::string_view pprofUnitFor(std::string_view u) {
  if (u == "samples" || u == "objects" || u == "lock_samples" || u == "goroutines") return "count";
  if (u == "lock_nanoseconds") return "nanoseconds";
  return u;
}

}  // namespace proflow::receivers::pyroscope
