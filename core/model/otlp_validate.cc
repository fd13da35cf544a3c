// The checks themselves are the flat model's (core/flat/flat_validate.cc), the ones every OTLP
// receiver runs: a protobuf request is checked through its wire form, so both models accept and
// refuse alike, with the same messages.
#include "core/model/otlp_validate.h"

#include "core/flat/flat_convert.h"
#include "core/flat/flat_decode.h"

namespace proflow {

ValidationResult validateAndPrune(otlp::Request* request) {
  ValidationResult result;
  std::string wire;
  if (!request->SerializeToString(&wire)) {
    result.request = Status::invalid("request could not be encoded as an ExportProfilesServiceRequest");
    return result;
  }
  flat::DecodeOptions options;
  options.max_entries = SIZE_MAX;  // the request is already in memory
  options.check_utf8 = false;      // and protobuf checked its strings when it parsed them
  flat::Batch batch;
  flat::DecodeResult v = flat::decode(wire, &batch, options);
  result.request = v.request;
  result.profile_errors = std::move(v.profile_errors);
  result.rejected_profiles = v.rejected_profiles;
  // Only a pruned request changes (and then it holds exactly what the flat batch kept).
  if (result.request.isOk() && result.rejected_profiles > 0) {
    otlp::Request pruned;
    if (Status s = flat::toRequest(batch, &pruned); !s.isOk()) {
      result.request = s;
      return result;
    }
    request->Swap(&pruned);
  }
  return result;
}

}  // namespace proflow
