// Client-side delta for cumulative pprof profiles (Go heap/allocs alloc_*, mutex/block contentions
// and delay count up from process start). A pure function over Profile messages, so it is tested
// without a network.
//
// Samples are keyed by their stack as instruction addresses (location ids are not stable across
// captures) — by function name and line for locations without an address — plus their labels.
// Duplicate keys are summed first. The first profile only primes the state; later ones forward
// value(now) - value(prev) for the cumulative types and the other types unchanged, dropping samples
// that end up all zero. A cumulative value that went down, or a key with counts that vanished (Go
// never drops a memory/mutex/block bucket while the process lives), means a restart: re-prime
// instead of forwarding negative or mixed-up values.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/formats/pprof/pprof_codec.h"

namespace proflow::receivers::pprof {

// Sample type names whose values are cumulative since process start (Go runtime conventions).
bool isCumulativeSampleType(std::string_view type);

// Remembered cumulative values of one target's profile between scrapes.
struct DeltaState {
  bool primed = false;
  int64_t time_nanos = 0;
  std::vector<std::string> signature;  // "type/unit" of every sample type; a change re-primes
  std::unordered_map<std::string, std::vector<int64_t>> values;  // key -> cumulative values
  void clear() { *this = DeltaState(); }
};

enum class DeltaOutcome {
  kPassThrough,  // no cumulative sample type: `out` is the input unchanged, state untouched
  kPrimed,       // first profile (or after a sample type change): state seeded, nothing to forward
  kReset,        // a cumulative value went down or a counted key vanished: re-seeded, nothing to forward
  kTooManyKeys,  // more distinct keys than max_keys: state dropped, nothing to forward
  kDelta,        // `out` holds the differences
};

const char* deltaOutcomeName(DeltaOutcome o);  // "pass_through", "primed", ...

struct DeltaOptions {
  size_t max_keys = 200000;
  // Capture time when the profile has no time_nanos (ns since the epoch).
  int64_t now_nanos = 0;
};

// Updates `state` with `current`; fills `out` for kPassThrough and kDelta. A delta covers
// [previous time_nanos, current time_nanos): time_nanos is set to the previous capture and
// duration_nanos to the gap. Locations and functions no kept sample uses are left out.
DeltaOutcome computeDelta(const ::proflow::pprof::Profile& current, DeltaState& state,
                          ::proflow::pprof::Profile* out, const DeltaOptions& options = {});

}  // namespace proflow::receivers::pprof
