// The flat batch seen as a protobuf request, for tests that build their input or read their output
// as an otlp::Request (the daemon itself holds only flat batches: core/flat/README.md). Every
// conversion goes through the OTLP wire form: the flat encoder and decoder are the only code that
// knows the field layout.
#pragma once

#include <string>
#include <vector>

#include "core/flat/flat_batch.h"
#include "core/model/batch.h"
#include "core/model/otlp_types.h"
#include "core/util/status.h"

namespace proflow::flat {

// Replaces `out` with the content of `request` (no validation: the request is trusted).
Status fromRequest(const otlp::Request& request, Batch* out);

// Replaces `out` with the content of `batch`.
Status toRequest(const Batch& batch, otlp::Request* out);

}  // namespace proflow::flat

namespace proflow {

// The receivers' checks (core/flat/flat_validate.cc) on a request: a broken dictionary rejects it
// (`request`), a broken profile is removed from it (OTLP partial success).
struct ValidationResult {
  Status request;                           // non-OK: reject everything (INVALID_ARGUMENT)
  std::vector<std::string> profile_errors;  // one per rejected profile, already removed from the request
  int64_t rejected_profiles = 0;
};
ValidationResult validateAndPrune(otlp::Request* request);

// Resources, profiles and samples of a request, as Batch::counts() gives them for a batch.
BatchCounts countRequest(const otlp::Request& request);

}  // namespace proflow

namespace proflow::testing {

// A pipeline batch holding `request` (converted once, here).
Batch batchOf(const otlp::Request& request);
// The content of `batch` as a request.
otlp::Request requestOf(const Batch& batch);

}  // namespace proflow::testing
