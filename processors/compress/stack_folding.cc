#include "processors/compress/stack_folding.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>
#include <vector>

namespace proflow::processors::compress {
namespace {

int32_t markerLocation(DictionaryBuilder& dict, std::string_view name) {
  otlp::Location loc;
  loc.add_lines()->set_function_index(dict.function(name, name, ""));
  return dict.location(loc);
}

std::vector<int32_t> locationsOf(const otlp::Dictionary& d, int32_t stack) {
  if (stack <= 0 || stack >= d.stack_table_size()) return {};
  const auto& l = d.stack_table(stack).location_indices();
  return {l.begin(), l.end()};
}

}  // namespace

double sampleWeight(const otlp::Sample& s) {
  if (s.values_size() == 0) return static_cast<double>(s.timestamps_unix_nano_size());
  double w = 0;
  for (int64_t v : s.values()) w += std::fabs(static_cast<double>(v));
  return w;
}

uint64_t truncateStacks(otlp::Profile* profile, DictionaryBuilder& dict, uint32_t max_depth) {
  if (max_depth < 2) return 0;
  std::unordered_map<int32_t, int32_t> done;  // old stack -> new stack
  int32_t marker = -1;
  uint64_t cut = 0;
  for (auto& s : *profile->mutable_samples()) {
    auto it = done.find(s.stack_index());
    if (it == done.end()) {
      std::vector<int32_t> locs = locationsOf(dict.dictionary(), s.stack_index());
      int32_t replacement = s.stack_index();
      if (locs.size() > max_depth) {
        if (marker < 0) marker = markerLocation(dict, "[truncated]");
        locs.resize(max_depth - 1);  // leaf first: the root side goes
        locs.push_back(marker);
        replacement = dict.stack(locs);
      }
      it = done.emplace(s.stack_index(), replacement).first;
    }
    if (it->second != s.stack_index()) {
      s.set_stack_index(it->second);
      ++cut;
    }
  }
  return cut;
}

uint64_t foldSmallStacks(otlp::Profile* profile, DictionaryBuilder& dict, uint32_t max_nodes, double min_fraction) {
  std::map<int32_t, double> weight;
  double total = 0;
  for (const auto& s : profile->samples()) {
    double w = sampleWeight(s);
    weight[s.stack_index()] += w;
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
    std::vector<int32_t> locs = locationsOf(dict.dictionary(), stack);
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
    std::vector<int32_t> locs = locationsOf(dict.dictionary(), stack);
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
  for (auto& s : *profile->mutable_samples()) {
    auto it = folded.find(s.stack_index());
    if (it == folded.end()) continue;
    s.set_stack_index(it->second);
    ++moved;
  }
  return moved;
}

}  // namespace proflow::processors::compress
