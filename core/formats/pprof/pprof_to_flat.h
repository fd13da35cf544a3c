// pprof -> flat::Batch, with the meaning of pprofToOtlp() (core/formats/pprof/pprof_to_otlp.h): one
// scope per pprof, one profile per sample type, labels -> sample attributes, trace-correlation
// labels -> links, the same proflow/pprof attributes and the same limits. The result converted with
// flat::toRequest equals what pprofToOtlp() appends to an empty request, dictionary order included.
// It skips the protobuf request: the dictionary is interned straight into the batch's tables, and
// the per-sample-type profiles share each sample's attribute list and timestamps.
#pragma once

#include <string_view>

#include "core/flat/flat_batch.h"
#include "core/formats/pprof/pprof_codec.h"
#include "core/formats/pprof/pprof_to_otlp.h"
#include "core/formats/pprof/pprof_view.h"
#include "core/util/status.h"

namespace proflow::pprof {

// Appends the converted profile to `out` (existing dictionary entries are reused; resource_index
// indexes out->resources). `p` is validated first; an invalid profile is refused with
// kInvalidArgument and `out` is left unchanged. Memory is claimed first (options.reserve_memory).
Status pprofToFlat(const ProfileView& p, const PprofToOtlpOptions& options, flat::Batch* out,
                   const ProfileLimits& limits = {});
// The same for a Profile message (validated with the default limits, as pprofToOtlp does); it is
// read through its serialization, which is also the original payload when one is kept.
Status pprofToFlat(const Profile& p, const PprofToOtlpOptions& options, flat::Batch* out);

// decompressProfile() + parseProfileView() + pprofToFlat(), with pprofBytesToOtlp's checks in its
// order (decode.profile_limits, then the memory claim counting the decompressed bytes as held).
// Keeps `data` as the original payload when asked (as pprofBytesToOtlp does).
Status pprofBytesToFlat(std::string_view data, const PprofToOtlpOptions& options, flat::Batch* out,
                        const DecodeOptions& decode = {});

}  // namespace proflow::pprof
