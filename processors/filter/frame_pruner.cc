#include "processors/filter/frame_pruner.h"

#include <vector>

namespace proflow::processors::filter {

bool FramePruner::dropped(int32_t function) const {
  const auto& d = dict_.dictionary();
  if (function <= 0 || function >= d.function_table_size()) return false;
  std::string_view name = dictString(d, d.function_table(function).name_strindex());
  if (!re2::RE2::FullMatch(name, *drop_)) return false;
  return keep_ == nullptr || !re2::RE2::FullMatch(name, *keep_);
}

int32_t FramePruner::locationVerdict(int32_t location) {
  auto it = locations_.find(location);
  if (it != locations_.end()) return it->second;
  int32_t verdict = -1;
  const auto& d = dict_.dictionary();
  if (location > 0 && location < d.location_table_size()) {
    const otlp::Location loc = d.location_table(location);  // a copy: interning may grow the table
    // The last line is the outermost caller; the first dropped line from the outside cuts there.
    for (int i = loc.lines_size() - 1; i >= 0; --i) {
      if (!dropped(loc.lines(i).function_index())) continue;
      if (i == loc.lines_size() - 1) {
        verdict = 0;
      } else {
        otlp::Location outer = loc;
        outer.mutable_lines()->DeleteSubrange(0, i + 1);
        verdict = dict_.location(outer);
      }
      break;
    }
  }
  locations_.emplace(location, verdict);
  return verdict;
}

int32_t FramePruner::prune(int32_t stack) {
  auto it = stacks_.find(stack);
  if (it != stacks_.end()) return it->second;
  const auto& d = dict_.dictionary();
  int32_t result = stack;
  if (stack > 0 && stack < d.stack_table_size()) {
    const auto& l = d.stack_table(stack).location_indices();
    std::vector<int32_t> locs(l.begin(), l.end());  // leaf first
    for (size_t k = locs.size(); k-- > 0;) {           // from the root towards the leaf
      int32_t v = locationVerdict(locs[k]);
      if (v < 0) continue;
      std::vector<int32_t> kept;
      if (v > 0) kept.push_back(v);
      kept.insert(kept.end(), locs.begin() + static_cast<std::ptrdiff_t>(k) + 1, locs.end());
      result = kept.empty() ? 0 : dict_.stack(kept);
      break;
    }
  }
  stacks_.emplace(stack, result);
  return result;
}

}  // namespace proflow::processors::filter
