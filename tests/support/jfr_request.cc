#include "tests/support/jfr_request.h"

#include "core/formats/jfr/flat_converter.h"
#include "tests/support/flat_request.h"

namespace proflow::jfr {
namespace {

// Runs `convert` on a flat batch holding `out`'s content and writes the result back into `out`.
template <class Convert>
ConvertResult viaFlat(otlp::Request* out, const Convert& convert) {
  flat::Batch batch;
  if (out->resource_profiles_size() > 0 || out->has_dictionary()) (void)flat::fromRequest(*out, &batch);
  ConvertResult r = convert(&batch);
  (void)flat::toRequest(batch, out);
  return r;
}

}  // namespace

ConvertResult convertToOtlp(std::span<const uint8_t> jfr, const ConvertOptions& options, otlp::Request* out) {
  return viaFlat(out, [&](flat::Batch* b) { return convertToFlat(jfr, options, b); });
}

ConvertResult convertToOtlp(std::istream& jfr, const ConvertOptions& options, otlp::Request* out) {
  return viaFlat(out, [&](flat::Batch* b) { return convertToFlat(jfr, options, b); });
}

}  // namespace proflow::jfr
