// One interval's samples -> a flat batch: one resource (service.name=proflow, service.version,
// process.pid, host.name, the configured attributes), a cpu/nanoseconds profile and a
// samples/count profile with every sample's time and thread.id / thread.name, frames as addresses
// in mappings of /proc/self/maps with GNU build ids, for the symbolize processor to name.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/flat/flat_batch.h"
#include "receivers/self/process_info.h"
#include "receivers/self/sampler.h"

namespace proflow::receivers::self {

class SelfProfileWriter {
 public:
  // `attributes` override the defaults; `mode` is written as the profile attribute
  // proflow.self.mode.
  SelfProfileWriter(std::map<std::string, std::string> attributes, std::string mode);

  // `names`: thread id -> thread name. `heap` (optional) adds the heap figures as profile
  // attributes. An interval without samples gives an empty batch.
  flat::Batch write(const SampleSet& samples, const std::unordered_map<int32_t, std::string>& names,
                    const HeapFigures* heap);

 private:
  const std::string& buildId(const MapEntry& m);

  std::map<std::string, std::string> attributes_;
  std::string mode_;
  std::map<std::pair<std::string, uint64_t>, std::string> build_ids_;  // (file, inode): read once
};

}  // namespace proflow::receivers::self
