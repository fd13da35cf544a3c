// Uploads shaped like the Datadog profilers send them, built from the documented formats
// (backends.md §4): pprof with dd-trace's span labels, multipart bodies in the current and older forms.
#pragma once

#include <string>
#include <vector>

#include "core/formats/pprof/pprof_codec.h"

namespace proflow::receivers::datadog::testing {

inline constexpr char kBoundary[] = "ddtestboundary0123";

struct Part {
  std::string name;
  std::string filename;  // "" = a plain field
  std::string content_type;
  std::string data;
};

std::string contentType();  // multipart/form-data with kBoundary
std::string multipart(const std::vector<Part>& parts);

// A pprof with `types` ({"cpu","nanoseconds"}, ...) and three samples in functions main.burn /
// main.work / main.main. The first two samples carry dd-trace's labels: `span id` 1234 and 99 and
// `local root span id` 5678 (as strings when `string_labels`, as numbers otherwise, like libdatadog),
// `trace endpoint` "GET /work"; the third none. time_nanos is `time_ns`.
pprof::Profile ddProfile(const std::vector<std::pair<std::string, std::string>>& types, bool string_labels,
                         int64_t time_ns = 0);
std::string serialize(const pprof::Profile& p);
std::string gzip(const std::string& raw);
std::string zstd(const std::string& raw);

// The event part of the current form.
std::string eventJson(const std::vector<std::string>& attachments, const std::string& tags,
                      const std::string& family = "go");

// A real JFR recording from the repository's fixtures (async-profiler, what dd-trace-java embeds).
std::string jfrRecording();

}  // namespace proflow::receivers::datadog::testing
