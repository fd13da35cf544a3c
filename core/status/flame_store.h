// What passed through the pipelines, kept per service.name and sample type as stacks of function
// names (root first) with their summed values, in time buckets so the last 1, 5 or 15 minutes can
// be summed. Bounded: every stack, name and value cell is charged to `max_bytes`; a sample that
// would need more is dropped and counted. Expired buckets free what only they referenced.
// Only add() and advance() change it: the const queries may run on other threads while no change
// is in progress (FlameTap: one writer thread, queries under its lock or on the writer itself).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/flat/flat_batch.h"
#include "core/status/flame_tree.h"

namespace proflow::status {

using Clock = std::chrono::steady_clock;

struct SeriesInfo {
  std::string service, type;
  uint64_t samples = 0;  // over the whole retention (15 minutes)
  int64_t value = 0;
};

class FlameStore {
 public:
  struct Options {
    size_t max_bytes = 16u << 20;
    std::chrono::seconds bucket{10};
    size_t buckets = 90;  // retention = bucket * buckets (15 minutes)
  };
  explicit FlameStore(Options options, Clock::time_point start = Clock::now());

  // Adds every sample of `batch`, as seen at `at`.
  void add(const flat::Batch& batch, Clock::time_point at);
  // Drops buckets past the retention and what only they referenced; true when something expired.
  bool advance(Clock::time_point now);

  // Series seen within the retention, sorted by service then type: the `limit` with the most
  // samples when there are more. Each series keeps its retention totals as samples arrive and
  // buckets expire, so this costs O(series), not a pass over the stored values.
  std::vector<SeriesInfo> series(Clock::time_point now, size_t limit = SIZE_MAX) const;
  // Series seen within the retention.
  size_t seriesCount(Clock::time_point now) const;
  // The call tree of one series over the last `window` (and, with `base` > 0, the comparison window's
  // values scaled to `window`'s length in FlameNode::base). False when the series is unknown.
  bool tree(const std::string& service, const std::string& type, std::chrono::seconds window,
            std::chrono::seconds base, Clock::time_point now, FlameTree* out) const;

  size_t memoryBytes() const { return memory_; }
  uint64_t droppedSamples() const { return dropped_samples_; }
  std::chrono::seconds retention() const { return options_.bucket * static_cast<int64_t>(options_.buckets); }

 private:
  struct Stack {
    std::vector<uint32_t> frames;  // name ids, root first
  };
  struct Totals {
    uint64_t samples = 0;
    int64_t value = 0;
  };
  struct Bucket {
    int64_t epoch = -1;  // bucket number (time since start / bucket width)
    std::unordered_map<uint64_t, int64_t> values;  // (series << 32 | stack) -> value
    std::unordered_map<uint32_t, Totals> samples;  // series -> its samples and value in this bucket
  };
  struct Series {
    std::string service, type;
    int64_t last_epoch = 0;
    Totals retained;  // over the buckets held: kept as buckets fill and expire
  };

  int64_t epochOf(Clock::time_point t) const;
  Bucket& bucketFor(int64_t epoch);
  // Empties a bucket past the retention (its memory and its series' totals).
  void expire(Bucket& b);
  bool live(const Series& s, Clock::time_point now) const;
  bool charge(size_t bytes);
  uint32_t seriesId(std::string_view service, std::string_view type, int64_t epoch);
  uint32_t nameId(std::string_view name);  // kNone at the cap
  uint32_t stackId(const std::vector<uint32_t>& frames);  // kNone at the cap
  void compact();
  // Sums series `id` over the buckets of the last `window`: stack -> value; returns the seconds covered.
  double sum(uint32_t id, std::chrono::seconds window, int64_t now_epoch, Clock::time_point now,
             std::unordered_map<uint32_t, int64_t>* out, uint64_t* samples) const;

  Options options_;
  Clock::time_point start_;
  std::vector<Bucket> buckets_;
  std::vector<std::string> names_;
  std::unordered_map<std::string, uint32_t> name_ids_;
  std::vector<Stack> stacks_;
  std::unordered_map<std::string, uint32_t> stack_ids_;  // frames as bytes -> id
  std::map<std::pair<std::string, std::string>, uint32_t> series_ids_;
  std::unordered_map<uint32_t, Series> series_;
  uint32_t next_series_ = 0;
  size_t memory_ = 0;
  uint64_t dropped_samples_ = 0;
  bool expired_ = false;  // a bucket was recycled since the last compaction
};

}  // namespace proflow::status
