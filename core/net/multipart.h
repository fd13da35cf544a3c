// A small multipart/form-data reader (RFC 7578) for profile uploads (Pyroscope SDKs, Datadog
// profilers): enough for what SDKs and `curl -F` send, strict about structure (a missing boundary or
// closing delimiter is an error, never a crash), bounded in the number of parts. Parts are views into
// the body.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/util/status.h"

namespace proflow::net {

struct FormPart {
  std::string name;          // Content-Disposition name="..."
  std::string filename;      // filename="..." ("" when absent)
  std::string content_type;  // part Content-Type ("" when absent)
  std::string_view data;     // points into the body
};

// `boundary` parameter of a multipart Content-Type ("" when absent or not multipart).
std::string multipartBoundary(std::string_view content_type);

// Splits `body` into parts. Errors are kInvalidArgument and say what is malformed.
Status parseMultipart(std::string_view body, std::string_view boundary, std::vector<FormPart>* parts,
                      size_t max_parts = 16);

}  // namespace proflow::net
