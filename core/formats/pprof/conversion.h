// What the pprof <-> OTLP conversions (pprof_to_flat.h, flat_to_pprof.h) share: their options, the
// pprofs rebuilt from a batch, and the memory claim a pprof's conversion makes before it allocates.
//
// pprof -> OTLP keeps what the OpenTelemetry collector-contrib translator loses, so the way back
// rebuilds the same pprof:
// - one ScopeProfiles per pprof, one OTLP Profile per sample type, all with the same samples in the
//   same order (sample i of every profile comes from pprof sample i);
// - scope attributes pprof.scope.sample_type_order (int[]: original sample_type index of each profile
//   in the scope) and pprof.scope.default_sample_type (only when set);
// - labels -> sample attributes (num_unit -> unit), kept verbatim; trace-correlation labels also
//   become a Link; a numeric "end_timestamp_ns" label also becomes the sample timestamp;
// - mapping build_id -> process.executable.build_id.{gnu,go} (or pprof.mapping.build_id), has_* ->
//   pprof.mapping.*, is_folded -> pprof.location.is_folded, drop/keep_frames, comment, doc_url ->
//   pprof.profile.* (only when non-empty).
// OTLP -> pprof undoes it:
// - a scope whose pprof.scope.sample_type_order covers all its profiles, and whose profiles hold the
//   same samples in the same order (same stack, attributes, link, timestamps), becomes ONE pprof with
//   multi-value samples, sample types in the original order, default_sample_type restored;
// - every other profile becomes its own single-value pprof;
// - sample attributes -> labels (int + unit -> num + num_unit, string -> str; bool/double -> str);
//   a Link whose ids are not already in labels -> span_id / trace_id hex string labels;
// - mappings (build id, has_*), is_folded, drop/keep_frames, comment, doc_url, period, time,
//   duration restored;
// - samples with timestamps: by default one pprof sample per timestamp carrying a numeric label
//   "end_timestamp_ns" (unit nanoseconds) so no timestamp is lost (not added when the sample already
//   has that attribute and one timestamp, i.e. it came from pprof). Timestamps without values count 1
//   each. With Timestamps::kDrop the events of a sample are summed into one pprof sample.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/formats/pprof/pprof_codec.h"
#include "core/util/status.h"

namespace proflow::pprof {

struct PprofToOtlpOptions {
  // Added to the resource of a newly appended ResourceProfiles (string values).
  std::vector<std::pair<std::string, std::string>> resource_attributes;
  // Append the scope to out->resource_profiles(resource_index) instead of a new ResourceProfiles.
  int resource_index = -1;
  std::string scope_name = "proflow.pprof";
  std::string scope_version;
  // Turn span/trace id labels into Sample links.
  bool trace_links = true;
  // Set original_payload_format = "pprof" and original_payload on the first profile of the scope.
  // The payload is `original_payload` when given, else the uncompressed serialization of the input.
  bool keep_original_payload = false;
  std::string_view original_payload;
  // Every pprof sample becomes one OTLP sample per sample type: a small file with many value columns
  // would multiply into a huge request. Refused (kPayloadTooLarge) above samples x sample types.
  size_t max_otlp_samples = 20'000'000;
  // Asked, before converting, for the bytes conversion will hold (estimateConversionBytes(), plus the
  // decompressed pprof on the bytes path). A non-OK answer refuses the profile with it: receivers
  // pass their in-flight budget here so a small body that decodes large is refused before it
  // allocates.
  std::function<Status(size_t bytes)> reserve_memory;
};

// What converting a pprof of this shape allocates, roughly and on the high side: every pprof sample
// becomes one OTLP sample per sample type (with its values and attribute indices), one stack per
// distinct sample, and dictionary entries per location/function/string.
size_t estimateConversionBytes(size_t samples, size_t sample_types, size_t location_refs, size_t label_refs,
                               size_t dictionary_entries);

class ProfileView;

// Asks options.reserve_memory (when set) for held_bytes + the estimate of what converting `p` holds
// (estimateConversionBytes). Every converter of a pprof runs it first.
Status reserveConversionMemory(const Profile& p, const PprofToOtlpOptions& options, size_t held_bytes);
Status reserveConversionMemory(const ProfileView& p, const PprofToOtlpOptions& options, size_t held_bytes);

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

// One rebuilt pprof, serialized and compressed (what exporters send), and where it came from.
struct EncodedPprof {
  std::string data;
  int resource_index = 0;
  int scope_index = 0;
  std::vector<int> profile_indices;
};

}  // namespace proflow::pprof
