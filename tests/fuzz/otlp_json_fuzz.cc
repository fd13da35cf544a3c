// OTLP/JSON as the OTLP HTTP receiver takes it: parsed (hex ids rewritten around protobuf's parser),
// validated, converted to pprof; a parsed request printed back as OTLP/JSON must parse again.
#include <string_view>

#include "core/formats/otlp_json/otlp_json.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proflow;
  otlp::Request request;
  if (!otlp_json::parseOtlpJson(std::string_view(reinterpret_cast<const char*>(data), size), &request).isOk())
    return 0;
  const std::string printed = otlp_json::toOtlpJson(request);
  otlp::Request again;
  Status s = otlp_json::parseOtlpJson(printed, &again);
  FUZZ_CHECK(s.isOk(), "printed OTLP/JSON does not parse: " + s.message());
  fuzz::exerciseReceivedRequest(request);
  return 0;
}
