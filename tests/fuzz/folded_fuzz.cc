// Folded stack text as the folded receiver, Pyroscope's default format and `proflow convert` take it.
// The first byte picks the options (lines format, counts scaled by a period); the rest is the text.
// The pprof built must be valid and convert to a valid OTLP request.
#include "core/formats/folded/folded.h"
#include "tests/support/pprof_request.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proflow;
  fuzz::FuzzInput in(data, size);
  const uint8_t flags = in.byte();
  folded::FoldedOptions options;
  options.lines_format = flags & 1;
  if (flags & 2) {
    options.scale_by_period = true;
    options.period_type = "cpu";
    options.period_unit = "nanoseconds";
    options.period = flags & 4 ? 10'000'000 : INT64_MAX / 3;  // the second overflows on any count > 2
  }
  pprof::Profile profile;
  if (!folded::foldedToPprof(in.rest(), options, &profile).isOk()) return 0;
  Status valid = pprof::validateProfile(profile);
  FUZZ_CHECK(valid.isOk(), "folded built an invalid pprof: " + valid.message());
  otlp::Request request;
  if (!pprof::pprofToOtlp(profile, {}, &request).isOk()) return 0;
  fuzz::checkConvertedRequest(request, "folded");
  return 0;
}
