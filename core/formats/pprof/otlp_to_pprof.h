// OTLP profiles -> pprof, undoing pprofToOtlp():
// - a scope whose pprof.scope.sample_type_order covers all its profiles, and whose profiles hold the
//   same samples in the same order (same stack, attributes, link, timestamps), becomes ONE pprof with
//   multi-value samples, sample types in the original order, default_sample_type restored;
// - every other profile becomes its own single-value pprof;
// - sample attributes -> labels (int + unit -> num + num_unit, string -> str; bool/double -> str);
//   a Link whose ids are not already in labels -> span_id / trace_id hex string labels;
// - mappings (build id from process.executable.build_id.{gnu,go} / pprof.mapping.build_id, has_*),
//   is_folded, drop/keep_frames, comment, doc_url, period, time, duration restored;
// - samples with timestamps: by default one pprof sample per timestamp carrying a numeric label
//   "end_timestamp_ns" (unit nanoseconds) so no timestamp is lost (not added when the sample already
//   has that attribute and one timestamp, i.e. it came from pprof). Timestamps without values count 1
//   each. With Timestamps::kDrop the events of a sample are summed into one pprof sample.
// Mappings referenced by locations are written in dictionary order; mappings pprofToOtlp kept in the
// scope attribute proflow.pprof.unreferenced_mappings follow them.
#pragma once

#include <string>
#include <vector>

#include "core/formats/pprof/pprof_codec.h"
#include "core/model/otlp_types.h"
#include "core/util/status.h"

namespace proflow::pprof {

struct OtlpToPprofOptions {
  enum class Timestamps { kLabel, kDrop };
  Timestamps timestamps = Timestamps::kLabel;
};

// One rebuilt pprof and where it came from in the request.
struct PprofFromOtlp {
  Profile profile;
  int resource_index = 0;
  int scope_index = 0;
  std::vector<int> profile_indices;  // OTLP profiles merged into this pprof, in scope order
};

// Converts every profile in `in`. Errors (kInvalidArgument) name the first dangling dictionary index.
Status otlpToPprof(const otlp::Request& in, std::vector<PprofFromOtlp>* out, const OtlpToPprofOptions& options = {});

// One rebuilt pprof, serialized and compressed (what exporters send), and where it came from.
struct EncodedPprof {
  std::string data;
  int resource_index = 0;
  int scope_index = 0;
  std::vector<int> profile_indices;
};

// otlpToPprof() + encodeProfile() without keeping the Profile messages (built on an arena: faster).
Status otlpToPprofBytes(const otlp::Request& in, std::vector<EncodedPprof>* out, const OtlpToPprofOptions& options = {},
                        Encoding encoding = Encoding::kGzip, int level = kDefaultGzipLevel);

// Converts one scope (from any request/dictionary); appends to `out`.
Status scopeToPprof(const otlp::Dictionary& dict, const otlp::ScopeProfiles& scope, std::vector<PprofFromOtlp>* out,
                    const OtlpToPprofOptions& options = {});

}  // namespace proflow::pprof
