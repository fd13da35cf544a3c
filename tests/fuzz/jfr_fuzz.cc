// JFR recordings as `POST /v1/jfr`, Pyroscope `format=jfr` and `proflow convert` read them: the whole
// buffer (zero copy) and the stream reader (one chunk buffered) must agree, and whatever complete
// chunks convert must pass the receivers' validation.
#include <span>
#include <sstream>
#include <string>

#include "tests/support/jfr_request.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proflow;
  otlp::Request request;
  jfr::ConvertResult buffered = jfr::convertToOtlp(std::span<const uint8_t>(data, size), {}, &request);

  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  otlp::Request streamed_request;
  jfr::ConvertResult streamed = jfr::convertToOtlp(in, {}, &streamed_request);
  FUZZ_CHECK(buffered.ok == streamed.ok && buffered.events == streamed.events,
             buffered.error.toString() + " vs " + streamed.error.toString());

  fuzz::checkConvertedRequest(request, "jfr");
  return 0;
}
