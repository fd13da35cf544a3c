#include "processors/compress/sample_merge.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace proflow::processors::compress {
namespace {

// Identity plus shape: aggregated samples only merge with aggregated ones of the same width, so the
// values/timestamps rules (same length, one shape per sample) keep holding.
std::string identity(const flat::Batch& b, uint32_t row) {
  const auto list = b.indexList(b.samples.attributes[row]);
  std::vector<int32_t> attrs(list.begin(), list.end());
  std::sort(attrs.begin(), attrs.end());
  std::string key;
  auto put = [&key](int64_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put(b.samples.stack_index[row]);
  put(b.samples.link_index[row]);
  put(b.samples.timestamps[row].size > 0 ? -1 : b.samples.values[row].size);
  for (int32_t a : attrs) put(a);
  return key;
}

// The values and timestamps of one merged sample while it grows.
struct Merged {
  uint32_t row = 0;
  std::vector<int64_t> values;
  std::vector<uint64_t> timestamps;
};

void appendInto(Merged& dst, const flat::Batch& b, uint32_t row) {
  const auto values = flat::Batch::slice(b.values, b.samples.values[row]);
  const auto timestamps = flat::Batch::slice(b.timestamps, b.samples.timestamps[row]);
  if (dst.timestamps.empty()) {
    for (size_t i = 0; i < dst.values.size(); ++i) dst.values[i] += values[i];
    return;
  }
  // Timestamped: when either side carries values, both must (1 per bare timestamp).
  if (dst.values.empty() && !values.empty()) dst.values.assign(dst.timestamps.size(), 1);
  for (size_t i = 0; i < timestamps.size(); ++i) {
    dst.timestamps.push_back(timestamps[i]);
    if (!dst.values.empty()) dst.values.push_back(!values.empty() ? values[i] : 1);
  }
}

template <class T>
flat::Range appendRun(std::vector<T>& column, const std::vector<T>& run) {
  flat::Range r{static_cast<uint32_t>(column.size()), static_cast<uint32_t>(run.size())};
  column.insert(column.end(), run.begin(), run.end());
  return r;
}

}  // namespace

void dropZeroSamples(flat::Batch& b, flat::Range rows, std::vector<bool>& keep, MergeStats& stats) {
  for (uint32_t row = rows.begin; row < rows.end(); ++row) {
    const flat::Range v = b.samples.values[row], t = b.samples.timestamps[row];
    if (v.size == 0) {
      if (t.size == 0) keep[row] = false;
      continue;
    }
    if (t.size == v.size) {
      std::vector<int64_t> values;
      std::vector<uint64_t> timestamps;
      for (uint32_t i = 0; i < v.size; ++i) {
        if (b.values[v.begin + i] == 0) {
          ++stats.zero_dropped;
          continue;
        }
        values.push_back(b.values[v.begin + i]);
        timestamps.push_back(b.timestamps[t.begin + i]);
      }
      if (values.size() == v.size) continue;
      if (values.empty()) {
        keep[row] = false;
        continue;
      }
      b.samples.values[row] = appendRun(b.values, values);
      b.samples.timestamps[row] = appendRun(b.timestamps, timestamps);
      continue;
    }
    if (t.size != 0) continue;  // malformed shape: leave it alone
    const auto values = flat::Batch::slice(b.values, v);
    if (std::all_of(values.begin(), values.end(), [](int64_t x) { return x == 0; })) {
      ++stats.zero_dropped;
      keep[row] = false;
    }
  }
}

void mergeSamples(flat::Batch& b, flat::Range rows, std::vector<bool>& keep, MergeStats& stats) {
  std::unordered_map<std::string, size_t> group_of;  // identity -> index in `groups`
  std::vector<Merged> groups;
  std::vector<bool> grown;  // per group: something was merged into it
  for (uint32_t row = rows.begin; row < rows.end(); ++row) {
    if (!keep[row]) continue;
    const uint32_t nv = b.samples.values[row].size, nt = b.samples.timestamps[row].size;
    if (nt != 0 && nv != 0 && nv != nt) continue;  // malformed
    auto [it, inserted] = group_of.try_emplace(identity(b, row), groups.size());
    if (inserted) {
      groups.push_back(Merged{row, {}, {}});
      grown.push_back(false);
      continue;
    }
    Merged& dst = groups[it->second];
    if (!grown[it->second]) {  // copied out on the first merge only
      const auto v = flat::Batch::slice(b.values, b.samples.values[dst.row]);
      const auto t = flat::Batch::slice(b.timestamps, b.samples.timestamps[dst.row]);
      dst.values.assign(v.begin(), v.end());
      dst.timestamps.assign(t.begin(), t.end());
      grown[it->second] = true;
    }
    appendInto(dst, b, row);
    keep[row] = false;
    ++stats.merged;
  }
  for (size_t g = 0; g < groups.size(); ++g) {
    if (!grown[g]) continue;
    b.samples.values[groups[g].row] = appendRun(b.values, groups[g].values);
    b.samples.timestamps[groups[g].row] = appendRun(b.timestamps, groups[g].timestamps);
  }
}

}  // namespace proflow::processors::compress
