// flat::Batch -> pprof (the mapping is described in conversion.h): the per-sample-type profiles of a
// scope that pprofToFlat made are zipped back into one multi-value pprof, every other profile
// becomes its own pprof, attributes become labels, links become span/trace id labels, timestamps
// become "end_timestamp_ns" labels (or are dropped).
#pragma once

#include <vector>

#include "core/flat/flat_batch.h"
#include "core/formats/pprof/conversion.h"
#include "core/formats/pprof/pprof_codec.h"
#include "core/util/status.h"

namespace proflow::pprof {

// Converts every profile of `in`; scope_index counts the scopes of each resource. Errors
// (kInvalidArgument) name the first dangling dictionary index.
Status flatToPprof(const flat::Batch& in, std::vector<PprofFromOtlp>* out, const OtlpToPprofOptions& options = {});

// flatToPprof() + encodeProfile(), writing the wire bytes straight from the draft.
Status flatToPprofBytes(const flat::Batch& in, std::vector<EncodedPprof>* out, const OtlpToPprofOptions& options = {},
                        Encoding encoding = Encoding::kGzip, int level = kDefaultGzipLevel);

// Where a converted pprof came from: the positions in in.profiles of the profiles that
// (resource_index, scope_index, profile_indices) of a PprofFromOtlp / EncodedPprof name.
std::vector<uint32_t> sourceProfiles(const flat::Batch& in, int resource_index, int scope_index,
                                     const std::vector<int>& profile_indices);

}  // namespace proflow::pprof
