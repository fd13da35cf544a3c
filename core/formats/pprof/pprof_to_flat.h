// pprof -> flat::Batch (the mapping is described in conversion.h): one scope per pprof, one profile
// per sample type, labels -> sample attributes, trace-correlation labels -> links. The dictionary is
// interned straight into the batch's tables, and the per-sample-type profiles share each sample's
// attribute list and timestamps.
#pragma once

#include <string_view>

#include "core/flat/flat_batch.h"
#include "core/formats/pprof/pprof_codec.h"
#include "core/formats/pprof/conversion.h"
#include "core/formats/pprof/pprof_view.h"
#include "core/util/status.h"

namespace proflow::pprof {

// Appends the converted profile to `out` (existing dictionary entries are reused; resource_index
// indexes out->resources). `p` is validated first; an invalid profile is refused with
// kInvalidArgument and `out` is left unchanged. Memory is claimed first (options.reserve_memory).
Status pprofToFlat(const ProfileView& p, const PprofToOtlpOptions& options, flat::Batch* out,
                   const ProfileLimits& limits = {});
// The same for a Profile message (validated with the default limits); it is read through its
// serialization, which is also the original payload when one is kept.
Status pprofToFlat(const Profile& p, const PprofToOtlpOptions& options, flat::Batch* out);

// decompressProfile() + parseProfileView() + pprofToFlat(): decode.profile_limits first, then the
// memory claim counting the decompressed bytes as held. Keeps `data` (the body as received) as the
// original payload when asked.
Status pprofBytesToFlat(std::string_view data, const PprofToOtlpOptions& options, flat::Batch* out,
                        const DecodeOptions& decode = {});

}  // namespace proflow::pprof
