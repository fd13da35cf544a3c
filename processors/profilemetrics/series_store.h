// The profilemetrics series between scrapes: running totals per service and sample type, and per
// service and sample type the top-N functions by self and by inclusive value. Not thread-safe (the
// processor serializes calls).
//
// Top-N is recomputed at the end of each window (config `window`) from what that window saw: a
// function in the top N by self (inclusive) value gets a self (inclusive) series, which starts at
// its value in that window and then counts every later sample, until a window ends with the
// function out of the top N; then the series goes (if it comes back it restarts from its window
// value, which rate() reads as a counter reset). A window in which a service and sample type got no
// sample leaves its top N as it was (agents that send less often than once a window do not make
// series come and go). Totals and function series run until nothing came for `idle_timeout`.
//
// Bounds: at most `max_series` series (totals first come first served, then function series in
// rank order at each window end; the rest are counted as dropped), at most
// `max_tracked_functions` function entries between two window ends.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "core/telemetry/metrics.h"
#include "processors/profilemetrics/profile_digest.h"

namespace proflow::processors::profilemetrics {

struct StoreLimits {
  size_t top_n = 10;
  size_t max_series = 2000;
  size_t max_tracked_functions = 20000;
  std::chrono::nanoseconds window = std::chrono::minutes(1);
  std::chrono::nanoseconds idle_timeout = std::chrono::hours(1);  // 0: totals never expire
};

// What one add() could not keep.
struct AddOutcome {
  uint64_t dropped_series = 0;       // series refused at max_series
  uint64_t dropped_samples = 0;      // samples left out of every total (their series was refused)
  uint64_t untracked_functions = 0;  // function entries refused at max_tracked_functions
};

class SeriesStore {
 public:
  using Clock = std::chrono::steady_clock;

  SeriesStore(const StoreLimits& limits, Clock::time_point now);

  AddOutcome add(Digest&& digest, Clock::time_point now);
  // Ends the windows that are over by `now` (add calls it too; call it before collect); returns
  // the function series refused at max_series.
  uint64_t advance(Clock::time_point now);
  // Appends the series as families, each sample with `base` labels first. With `exemplars`, every
  // exemplar shown is marked as seen: the next linked sample replaces it whatever its weight (so
  // a scrape shows the heaviest linked sample since the previous one).
  void collect(std::vector<telemetry::MetricFamily>& out, const telemetry::Labels& base, bool exemplars);

  size_t seriesCount() const { return series_; }
  size_t trackedFunctions() const { return tracked_; }

 private:
  struct Slot {  // an exemplar candidate and whether a scrape showed it already
    ExemplarCandidate candidate;
    bool shown = false;
    void offer(ExemplarCandidate&& c);
  };
  struct Function {
    int64_t self_window = 0, inclusive_window = 0;  // this window
    int64_t self = 0, inclusive = 0;                // series values (while in_self / in_inclusive)
    bool in_self = false, in_inclusive = false;
    Slot self_exemplar, inclusive_exemplar;
  };
  struct Key {
    int64_t total = 0;
    bool active = false;  // got samples in this window
    Slot exemplar;
    Clock::time_point last_seen;
    std::unordered_map<std::string, Function> functions;
  };
  using KeyId = std::tuple<std::string, std::string, std::string>;  // service, type, unit

  uint64_t rotate(Clock::time_point now);  // ends one window

  StoreLimits limits_;
  Clock::time_point window_start_;
  std::map<KeyId, Key> keys_;
  size_t series_ = 0;
  size_t tracked_ = 0;
};

}  // namespace proflow::processors::profilemetrics
