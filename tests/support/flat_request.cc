#include "tests/support/flat_request.h"

#include <cstdint>

#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"

namespace proflow::flat {

Status fromRequest(const otlp::Request& request, Batch* out) {
  std::string wire;
  if (!request.SerializeToString(&wire)) return Status::internal("OTLP request could not be serialized");
  DecodeOptions options;
  options.validate = false;
  options.max_entries = SIZE_MAX;
  options.check_utf8 = false;
  return decode(wire, out, options).request;
}

Status toRequest(const Batch& batch, otlp::Request* out) {
  const std::string wire = encode(batch);
  if (!out->ParseFromString(wire)) return Status::internal("flat batch encoded to an unreadable OTLP request");
  return Status::ok();
}

}  // namespace proflow::flat

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

BatchCounts countRequest(const otlp::Request& request) {
  BatchCounts c;
  c.resources = static_cast<uint64_t>(request.resource_profiles_size());
  for (const auto& rp : request.resource_profiles())
    for (const auto& sp : rp.scope_profiles()) {
      c.profiles += static_cast<uint64_t>(sp.profiles_size());
      for (const auto& p : sp.profiles()) c.samples += static_cast<uint64_t>(p.samples_size());
    }
  return c;
}

}  // namespace proflow

namespace proflow::testing {

Batch batchOf(const otlp::Request& request) {
  flat::Batch data;
  // Fails only past the flat model's 4 GiB bound: the batch is then empty, which the test sees.
  if (!flat::fromRequest(request, &data).isOk()) data.clear();
  data.shrinkToFit();
  return Batch(std::move(data));
}

otlp::Request requestOf(const Batch& batch) {
  otlp::Request request;
  (void)flat::toRequest(batch.data(), &request);  // a batch always encodes to a request protobuf reads
  return request;
}

}  // namespace proflow::testing
