// One upload to `POST /profiling/v1/input` split into what the converter needs: the profiler's
// family, the recording window, its tags in order, and the attachments (views into the body).
//
// Two multipart/form-data forms are read (backends.md §4):
// - current (event version 4): a part `event` (event.json: `attachments`, `tags_profiler`, `start`,
//   `end`, `family`, ...) and one file part per listed attachment, matched by part name or file name
//   (`cpu.pprof`, `wall.pprof`, `heap.pprof`, `profile.pprof`, Java's part `main` / `main.jfr`, ...);
// - older (dd-trace-go before event.json, .NET): fields `format`, `runtime`, `recording-start`,
//   `recording-end`, repeated `tags[]`, `types[i]`, and file parts `data[i]` / `data[auto.pprof]`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/util/status.h"

namespace proflow::receivers::datadog {

using Tags = std::vector<std::pair<std::string, std::string>>;

struct IntakeAttachment {
  std::string name;       // as event.json lists it ("cpu.pprof"), or the legacy types[i] ("cpu")
  std::string_view data;  // as sent: gzip, zstd or raw (told apart by magic later)
};

struct Intake {
  bool legacy = false;  // the older form
  std::string family;   // "go", "java", "node", ... ("" when not said)
  int64_t start_ns = 0;  // recording window; 0 when absent
  int64_t end_ns = 0;
  Tags tags;             // tags_profiler / tags[], split at the first ':' (a tag without ':' has value "")
  std::vector<IntakeAttachment> attachments;
};

// Parts allowed in one upload (Go sends up to ~10 attachments plus the event). event.json may list
// each part once, so an upload converts at most this many attachments.
inline constexpr size_t kMaxParts = 64;
// Tags of one upload (tags_profiler, or X-Datadog-Additional-Tags): tracers send a few dozen.
inline constexpr size_t kMaxTags = 1024;

// Errors are kInvalidArgument naming what is wrong ("multipart: ...", "event.json: ...",
// "attachment 'cpu.pprof' listed in event.json has no part", a part listed twice, more than
// kMaxTags tags).
Status parseIntake(std::string_view content_type, std::string_view body, Intake* out);

// "k1:v1,k2:v2" (tags_profiler, X-Datadog-Additional-Tags) appended to `out`; empty items skipped.
void splitTags(std::string_view joined, Tags* out);
// kInvalidArgument naming `where` when `tags` holds more than kMaxTags.
Status checkTagCount(const Tags& tags, std::string_view where);

// RFC 3339 ("2024-05-01T10:00:00.123456789Z", "...+02:00") to ns since the epoch; false when malformed.
bool parseRfc3339(std::string_view text, int64_t* ns);

}  // namespace proflow::receivers::datadog
