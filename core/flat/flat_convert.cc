#include "core/flat/flat_convert.h"

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
