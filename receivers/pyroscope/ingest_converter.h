// One `/ingest` request (parsed query + body) -> a flat batch (OTLP profiles). Pure: no pipeline types.
//
// Body formats (Pyroscope's selection order): `format=trie|tree|speedscope` are refused as not
// supported (kUnimplemented); `format=jfr` goes to jfr_input.h (multipart parts `jfr` + optional
// `labels`, or a raw JFR body); `format=lines` and folded text (the default) become one profile typed
// by the name's suffix; `format=pprof`, a multipart/form-data body (parts `profile`, optional
// `sample_type_config`; `prev_profile` refused) or a body that is gzip/zstd/raw pprof become one OTLP
// profile per sample type through the shared pprof conversion.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/compression/compression.h"
#include "core/flat/flat_batch.h"
#include "core/util/status.h"
#include "receivers/pyroscope/ingest_params.h"

namespace proflow::receivers::pyroscope {

// Attribute keys proflow adds (resource: spy name; profile: Pyroscope's view of the sample type).
namespace attr {
inline constexpr std::string_view kServiceName = "service.name";
inline constexpr std::string_view kAppName = "app_name";  // the app name when a service_name label overrides it
inline constexpr std::string_view kSpyName = "pyroscope.spy_name";
inline constexpr std::string_view kProfileName = "pyroscope.profile.name";  // metric family (__name__)
inline constexpr std::string_view kDisplayName = "pyroscope.display_name";
inline constexpr std::string_view kAggregation = "pyroscope.aggregation";   // "average" when not a sum
inline constexpr std::string_view kCumulative = "pyroscope.cumulative";     // true: not a delta
}  // namespace attr

inline constexpr std::string_view kScopeName = "proflow.receiver.pyroscope";

struct ConvertOptions {
  // Bounds every decompression of a profile or a multipart part (absolute and ratio).
  compression::Limits limits;
  // Asked (optional) for the total bytes the upload will hold (the body, inflated parts, parsing and
  // conversion) before they are allocated: the receiver's in-flight claim. A refusal (kResourceExhausted
  // while others hold the budget, kPayloadTooLarge when the upload alone is over it) is returned as is.
  std::function<Status(size_t bytes)> reserve_memory;
  // JFR uploads: merge JVM-generated class names (core/formats/jfr/generated_names.h).
  bool merge_generated_names = true;
};

// Resource attributes of an upload: service.name (a `service_name` label wins over `app_service`, which
// is then kept as app_name), every other label verbatim, and the spy name.
std::vector<std::pair<std::string, std::string>> ingestResourceAttributes(const IngestParams& params,
                                                                          const std::string& app_service);

// Errors: kInvalidArgument (malformed body: the message says what), kPayloadTooLarge (a limit),
// kUnimplemented (a format proflow does not take yet), reserve_memory's refusal.
Status convertIngest(const IngestParams& params, std::string_view content_type, std::string_view body,
                     const ConvertOptions& options, flat::Batch* out);

}  // namespace proflow::receivers::pyroscope
