#include "processors/compress/sample_merge.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/repeated_fields.h"

namespace proflow::processors::compress {
namespace {

// Identity plus shape: aggregated samples only merge with aggregated ones of the same width, so the
// values/timestamps rules (same length, one shape per sample) keep holding.
std::string identity(const otlp::Sample& s) {
  std::vector<int32_t> attrs(s.attribute_indices().begin(), s.attribute_indices().end());
  std::sort(attrs.begin(), attrs.end());
  std::string key;
  auto put = [&key](int64_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
  put(s.stack_index());
  put(s.link_index());
  put(s.timestamps_unix_nano_size() > 0 ? -1 : s.values_size());
  for (int32_t a : attrs) put(a);
  return key;
}

void appendInto(otlp::Sample& dst, const otlp::Sample& src) {
  if (dst.timestamps_unix_nano_size() == 0) {
    for (int i = 0; i < dst.values_size(); ++i) dst.set_values(i, dst.values(i) + src.values(i));
    return;
  }
  // Timestamped: when either side carries values, both must (1 per bare timestamp).
  if (dst.values_size() == 0 && src.values_size() != 0)
    for (int i = 0; i < dst.timestamps_unix_nano_size(); ++i) dst.add_values(1);
  for (int i = 0; i < src.timestamps_unix_nano_size(); ++i) {
    dst.add_timestamps_unix_nano(src.timestamps_unix_nano(i));
    if (dst.values_size() != 0) dst.add_values(src.values_size() != 0 ? src.values(i) : 1);
  }
}

}  // namespace

void dropZeroSamples(otlp::Profile* profile, MergeStats& stats) {
  removeIf(profile->mutable_samples(), [&](const otlp::Sample& cs) {
    auto& s = const_cast<otlp::Sample&>(cs);  // the profile is ours to edit
    if (s.values_size() == 0) return s.timestamps_unix_nano_size() == 0;
    if (s.timestamps_unix_nano_size() == s.values_size()) {
      int out = 0;
      for (int i = 0; i < s.values_size(); ++i) {
        if (s.values(i) == 0) {
          ++stats.zero_dropped;
          continue;
        }
        s.set_values(out, s.values(i));
        s.set_timestamps_unix_nano(out, s.timestamps_unix_nano(i));
        ++out;
      }
      s.mutable_values()->Truncate(out);
      s.mutable_timestamps_unix_nano()->Truncate(out);
      return out == 0;
    }
    if (s.timestamps_unix_nano_size() != 0) return false;  // malformed shape: leave it alone
    bool zero = std::all_of(s.values().begin(), s.values().end(), [](int64_t v) { return v == 0; });
    if (zero) ++stats.zero_dropped;
    return zero;
  });
}

void mergeSamples(otlp::Profile* profile, MergeStats& stats) {
  auto* samples = profile->mutable_samples();
  std::unordered_map<std::string, int> first;
  std::vector<bool> gone(static_cast<size_t>(samples->size()), false);
  uint64_t merged = 0;
  for (int i = 0; i < samples->size(); ++i) {
    const auto& s = samples->Get(i);
    bool malformed = s.timestamps_unix_nano_size() != 0 && s.values_size() != 0 &&
                     s.values_size() != s.timestamps_unix_nano_size();
    if (malformed) continue;
    auto [it, inserted] = first.try_emplace(identity(s), i);
    if (inserted) continue;
    appendInto(*samples->Mutable(it->second), s);
    gone[static_cast<size_t>(i)] = true;
    ++merged;
  }
  stats.merged += merged;
  if (merged == 0) return;
  int index = 0;
  removeIf(samples, [&](const otlp::Sample&) { return gone[static_cast<size_t>(index++)]; });
}

}  // namespace proflow::processors::compress
