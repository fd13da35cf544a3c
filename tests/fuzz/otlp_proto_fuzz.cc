// OTLP profiles protobuf as the OTLP receivers take it (gRPC and HTTP): parsed, then the receivers'
// validation (which prunes invalid profiles), then what is left converted to pprof as the pprof-speaking
// exporters do.
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  proflow::otlp::Request request;
  if (size > static_cast<size_t>(INT32_MAX) || !request.ParseFromArray(data, static_cast<int>(size))) return 0;
  proflow::fuzz::exerciseReceivedRequest(request);
  return 0;
}
