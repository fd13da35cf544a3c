#include "processors/compress/stack_folding.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

namespace proflow::processors::compress {
namespace {

int32_t markerLocation(flat::DictionaryIndex& dict, std::string_view name) {
  flat::Function f;
  f.name_strindex = f.system_name_strindex = dict.string(name);
  f.filename_strindex = dict.string("");
  flat::Line line;
  line.function_index = dict.function(f);
  return dict.location(flat::Location{}, std::span<const flat::Line>(&line, 1), {});
}

std::vector<int32_t> locationsOf(const flat::Batch& b, int32_t stack) {
  if (stack <= 0 || static_cast<size_t>(stack) >= b.stacks.size()) return {};
  const auto l = b.indexList(b.stacks[static_cast<size_t>(stack)].locations);
  return {l.begin(), l.end()};
}

}  // namespace

double sampleWeight(const flat::Batch& b, size_t row) {
  const flat::Range values = b.samples.values[row];
  if (values.size == 0) return static_cast<double>(b.samples.timestamps[row].size);
  double w = 0;
  for (int64_t v : flat::Batch::slice(b.values, values)) w += std::fabs(static_cast<double>(v));
  return w;
}

uint64_t truncateStacks(flat::DictionaryIndex& dict, flat::Range rows, uint32_t max_depth) {
  if (max_depth < 2) return 0;
  std::unordered_map<int32_t, int32_t> done;  // old stack -> new stack
  int32_t marker = -1;
  uint64_t cut = 0;
  std::vector<int32_t>& stacks = dict.batch().samples.stack_index;
  for (uint32_t row = rows.begin; row < rows.end(); ++row) {
    int32_t& stack = stacks[row];
    auto it = done.find(stack);
    if (it == done.end()) {
      std::vector<int32_t> locs = locationsOf(dict.batch(), stack);
      int32_t replacement = stack;
      if (locs.size() > max_depth) {
        if (marker < 0) marker = markerLocation(dict, "[truncated]");
        locs.resize(max_depth - 1);  // leaf first: the root side goes
        locs.push_back(marker);
        replacement = dict.stack(locs);
      }
      it = done.emplace(stack, replacement).first;
    }
    if (it->second != stack) {
      stack = it->second;
      ++cut;
    }
  }
  return cut;
}

uint64_t foldSmallStacks(flat::DictionaryIndex& dict, flat::Range rows, uint32_t max_nodes, double min_fraction) {
  const flat::Batch& b = dict.batch();
  std::map<int32_t, double> weight;
  double total = 0;
  for (uint32_t row = rows.begin; row < rows.end(); ++row) {
    double w = sampleWeight(b, row);
    weight[b.samples.stack_index[row]] += w;
    total += w;
  }
  std::vector<std::pair<double, int32_t>> order;
  for (const auto& [stack, w] : weight) order.emplace_back(w, stack);
  // Heaviest first; ties by index so the result does not depend on hash order.
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::set<int32_t> kept;
  for (size_t i = 0; i < order.size(); ++i) {
    if (max_nodes != 0 && i >= max_nodes) break;
    if (total > 0 && order[i].first / total < min_fraction) break;
    kept.insert(order[i].second);
  }
  if (kept.size() == weight.size()) return 0;

  // Every root-side prefix of a kept stack (as root-first location paths).
  std::set<std::vector<int32_t>> prefixes;
  for (int32_t stack : kept) {
    std::vector<int32_t> locs = locationsOf(b, stack);
    std::vector<int32_t> path;
    for (auto it = locs.rbegin(); it != locs.rend(); ++it) {
      path.push_back(*it);
      prefixes.insert(path);
    }
  }
  const int32_t other = markerLocation(dict, "[other]");
  std::map<int32_t, int32_t> folded;
  for (const auto& [stack, w] : weight) {
    if (kept.count(stack)) continue;
    std::vector<int32_t> locs = locationsOf(b, stack);
    std::vector<int32_t> path;
    for (auto it = locs.rbegin(); it != locs.rend(); ++it) {
      path.push_back(*it);
      if (!prefixes.count(path)) {
        path.pop_back();
        break;
      }
    }
    // Never fold a stack onto itself: a stack that is entirely a kept prefix drops its leaf.
    if (path.size() == locs.size() && !path.empty()) path.pop_back();
    std::vector<int32_t> leaf_first(path.rbegin(), path.rend());
    leaf_first.insert(leaf_first.begin(), other);
    folded[stack] = dict.stack(leaf_first);
  }
  uint64_t moved = 0;
  for (uint32_t row = rows.begin; row < rows.end(); ++row) {
    int32_t& stack = dict.batch().samples.stack_index[row];
    auto it = folded.find(stack);
    if (it == folded.end()) continue;
    stack = it->second;
    ++moved;
  }
  return moved;
}

}  // namespace proflow::processors::compress
