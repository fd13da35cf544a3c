// The query string of Pyroscope's `POST /ingest`: `name=app{k=v,...}`, `from`/`until`, `sampleRate`,
// `spyName`, `units`, `aggregationType`, `format`. Pure functions, no I/O.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/util/status.h"

namespace proflow::receivers::pyroscope {

using Labels = std::vector<std::pair<std::string, std::string>>;

// Parses Pyroscope's series name `app.name{k=v,k2=v2}` (no quoting or escaping exists in this syntax:
// a value runs to the next ',' or '}', surrounding spaces are trimmed). The application name may use
// letters, digits and `_ . - /`; label keys letters, digits, `_` and `.`. Labels whose key starts
// with `__` are dropped (Pyroscope reserves them) except `__session_id__`. Duplicate keys: the last
// value wins. Errors (kInvalidArgument) say what is wrong: empty name, bad character, missing '}' or '=', text after '}'.
Status parseSeriesName(std::string_view name, std::string* app, Labels* labels);

// Pyroscope's time parameter: digits only, told apart by length (8 = YYYYMMDD, 13 = ms, 16 = µs,
// 19 = ns, anything else = seconds), or `now` / `now-<N><s|m|h|d>`. Returns ns since the epoch.
Status parseIngestTime(std::string_view text, int64_t now_ns, int64_t* out_ns);

struct IngestParams {
  std::string app_name;  // before '{', as sent
  Labels labels;         // from the braces, `__*` keys removed
  int64_t from_ns = 0;
  int64_t until_ns = 0;
  int64_t sample_rate = 100;  // Hz; absent, invalid or <= 0 -> 100 (as Pyroscope)
  bool sample_rate_given = false;  // a valid sampleRate was sent (JFR then overrides the recording's period)
  bool from_given = false;         // `from` was sent (JFR: the query window replaces the recording's)
  std::string spy_name = "unknown";
  std::string units = "samples";
  std::string aggregation = "sum";
  std::string format;  // lower-cased; "" when absent
};

// Reads every parameter; `name` is required. Absent from/until default to `now_ns`.
Status parseIngestParams(const std::multimap<std::string, std::string>& query, int64_t now_ns, IngestParams* out);

}  // namespace proflow::receivers::pyroscope
