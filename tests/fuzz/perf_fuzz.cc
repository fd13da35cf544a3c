// Linux perf recordings as `POST /v1/perf`, the perf receiver's directory mode and `proflow convert`
// read them: perf.data (file and pipe mode) or perf script text, detected. Whatever converts must
// pass the receivers' validation unchanged.
#include <string_view>

#include "tests/support/flat_request.h"
#include "core/formats/perf/perf.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proflow;
  flat::Batch batch;
  perf::Options options;
  options.end_time_unix_nano = 1'700'000'000'000'000'000ull;
  options.limits.max_samples = 100'000;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  Status s = perf::perfToFlat(input, options, &batch);
  FUZZ_CHECK(s.isOk() || s.code() == StatusCode::kInvalidArgument, s.toString());
  FUZZ_CHECK(s.isOk() || batch.profiles.empty(), "a refused recording left profiles behind");
  if (!s.isOk()) return 0;
  otlp::Request request;
  FUZZ_CHECK(flat::toRequest(batch, &request).isOk(), "flat -> request");
  fuzz::checkConvertedRequest(request, "perf");
  return 0;
}
