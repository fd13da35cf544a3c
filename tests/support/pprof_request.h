// The pprof and folded conversions (core/formats/pprof/pprof_to_flat.h, flat_to_pprof.h,
// core/formats/folded/folded.h) seen from a protobuf request, for tests that build their input or
// read their output as an otlp::Request. Each goes through the flat batch (tests/support/flat_request.h).
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

#include "core/formats/folded/folded.h"
#include "core/formats/pprof/conversion.h"
#include "core/formats/pprof/pprof_codec.h"
#include "core/model/otlp_types.h"
#include "core/util/status.h"

namespace proflow::pprof {

// pprofToFlat / pprofBytesToFlat appending to `out` (existing dictionary entries are reused).
Status pprofToOtlp(const Profile& p, const PprofToOtlpOptions& options, otlp::Request* out);
Status pprofBytesToOtlp(std::string_view data, const PprofToOtlpOptions& options, otlp::Request* out,
                        const DecodeOptions& decode = {});

// flatToPprof / flatToPprofBytes of the request.
Status otlpToPprof(const otlp::Request& in, std::vector<PprofFromOtlp>* out, const OtlpToPprofOptions& options = {});
Status otlpToPprofBytes(const otlp::Request& in, std::vector<EncodedPprof>* out, const OtlpToPprofOptions& options = {},
                        Encoding encoding = Encoding::kGzip, int level = kDefaultGzipLevel);

}  // namespace proflow::pprof

namespace proflow::folded {

// foldedToFlat appending to `out`.
Status foldedToOtlp(std::string_view text, const FoldedOptions& options, const pprof::PprofToOtlpOptions& convert,
                    size_t held_bytes, const std::function<Status(size_t bytes)>& reserve, otlp::Request* out);

}  // namespace proflow::folded
