#include "processors/filter/frame_pruner.h"

#include <vector>

namespace proflow::processors::filter {

bool FramePruner::dropped(int32_t function) const {
  const flat::Batch& b = dict_.batch();
  if (function <= 0 || static_cast<size_t>(function) >= b.functions.size()) return false;
  std::string_view name = b.string(b.functions[static_cast<size_t>(function)].name_strindex);
  if (!re2::RE2::FullMatch(name, *drop_)) return false;
  return keep_ == nullptr || !re2::RE2::FullMatch(name, *keep_);
}

int32_t FramePruner::locationVerdict(int32_t location) {
  auto it = locations_.find(location);
  if (it != locations_.end()) return it->second;
  int32_t verdict = -1;
  const flat::Batch& b = dict_.batch();
  if (location > 0 && static_cast<size_t>(location) < b.locations.size()) {
    const flat::Location loc = b.locations[static_cast<size_t>(location)];
    // Copies: interning below may grow the columns these views point into.
    const auto line_view = flat::Batch::slice(b.lines, loc.lines);
    const std::vector<flat::Line> lines(line_view.begin(), line_view.end());
    // The last line is the outermost caller; the first dropped line from the outside cuts there.
    for (size_t i = lines.size(); i-- > 0;) {
      if (!dropped(lines[i].function_index)) continue;
      if (i == lines.size() - 1) {
        verdict = 0;
      } else {
        const auto attr_view = b.indexList(loc.attributes);
        const std::vector<int32_t> attributes(attr_view.begin(), attr_view.end());
        const std::vector<flat::Line> outer(lines.begin() + static_cast<std::ptrdiff_t>(i) + 1, lines.end());
        verdict = dict_.location(loc, outer, attributes);
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
  const flat::Batch& b = dict_.batch();
  int32_t result = stack;
  if (stack > 0 && static_cast<size_t>(stack) < b.stacks.size()) {
    const auto view = b.indexList(b.stacks[static_cast<size_t>(stack)].locations);
    const std::vector<int32_t> locs(view.begin(), view.end());  // leaf first
    for (size_t k = locs.size(); k-- > 0;) {                      // from the root towards the leaf
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
