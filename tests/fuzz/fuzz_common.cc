#include "tests/fuzz/fuzz_common.h"

#include <string>
#include <vector>

#include "tests/support/pprof_request.h"
#include "tests/support/flat_request.h"

namespace proflow::fuzz {

void checkConvertedRequest(otlp::Request& request, std::string_view source) {
  ValidationResult v = validateAndPrune(&request);
  std::string why = std::string(source) + ": " + v.request.message();
  for (const std::string& e : v.profile_errors) why += "; " + e;
  FUZZ_CHECK(v.request.isOk() && v.rejected_profiles == 0, why);
  std::vector<pprof::PprofFromOtlp> back;
  Status s = pprof::otlpToPprof(request, &back);
  FUZZ_CHECK(s.isOk(), std::string(source) + " -> pprof: " + s.message());
}

void exerciseReceivedRequest(otlp::Request& request) {
  ValidationResult v = validateAndPrune(&request);
  if (!v.request.isOk()) return;
  std::vector<pprof::PprofFromOtlp> back;
  (void)pprof::otlpToPprof(request, &back);
}

}  // namespace proflow::fuzz
