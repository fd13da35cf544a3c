#include "tests/support/pprof_request.h"

#include "core/formats/pprof/flat_to_pprof.h"
#include "core/formats/pprof/pprof_to_flat.h"
#include "tests/support/flat_request.h"

namespace proflow {
namespace {

// Runs `convert` on a flat batch holding `out`'s content; `out` takes the result only on success
// (the converters leave their batch unchanged when they refuse).
template <class Convert>
Status appendThroughFlat(otlp::Request* out, const Convert& convert) {
  flat::Batch batch;
  if (Status s = flat::fromRequest(*out, &batch); !s.isOk()) return s;
  if (Status s = convert(&batch); !s.isOk()) return s;
  return flat::toRequest(batch, out);
}

flat::Batch flatOf(const otlp::Request& in) {
  flat::Batch batch;
  (void)flat::fromRequest(in, &batch);  // fails only past the flat model's 4 GiB bound
  return batch;
}

}  // namespace

namespace pprof {

Status pprofToOtlp(const Profile& p, const PprofToOtlpOptions& options, otlp::Request* out) {
  return appendThroughFlat(out, [&](flat::Batch* b) { return pprofToFlat(p, options, b); });
}

Status pprofBytesToOtlp(std::string_view data, const PprofToOtlpOptions& options, otlp::Request* out,
                        const DecodeOptions& decode) {
  return appendThroughFlat(out, [&](flat::Batch* b) { return pprofBytesToFlat(data, options, b, decode); });
}

Status otlpToPprof(const otlp::Request& in, std::vector<PprofFromOtlp>* out, const OtlpToPprofOptions& options) {
  return flatToPprof(flatOf(in), out, options);
}

Status otlpToPprofBytes(const otlp::Request& in, std::vector<EncodedPprof>* out, const OtlpToPprofOptions& options,
                        Encoding encoding, int level) {
  return flatToPprofBytes(flatOf(in), out, options, encoding, level);
}

}  // namespace pprof

namespace folded {

Status foldedToOtlp(std::string_view text, const FoldedOptions& options, const pprof::PprofToOtlpOptions& convert,
                    size_t held_bytes, const std::function<Status(size_t bytes)>& reserve, otlp::Request* out) {
  return appendThroughFlat(
      out, [&](flat::Batch* b) { return foldedToFlat(text, options, convert, held_bytes, reserve, b); });
}

}  // namespace folded
}  // namespace proflow
