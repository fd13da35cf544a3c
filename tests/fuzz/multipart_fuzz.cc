// The shared multipart/form-data reader (Pyroscope and Datadog uploads): the first line is the Content-Type (the boundary comes from
// it), the rest the body. Parts must be views inside the body, and never more than asked for.
#include "core/net/multipart.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proflow::net;
  proflow::fuzz::FuzzInput in(data, size);
  const std::string boundary = multipartBoundary(in.line());
  const std::string_view body = in.rest();
  std::vector<FormPart> parts;
  if (!parseMultipart(body, boundary, &parts, 4).isOk()) return 0;
  FUZZ_CHECK(parts.size() <= 4, std::to_string(parts.size()) + " parts");
  for (const FormPart& p : parts)
    FUZZ_CHECK(p.data.empty() || (p.data.data() >= body.data() && p.data.data() + p.data.size() <= body.data() + body.size()),
               "part " + p.name + " outside the body");
  return 0;
}
