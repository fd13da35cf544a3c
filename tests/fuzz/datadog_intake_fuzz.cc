// The datadog receiver's `POST /profiling/v1/input` without the socket: the first line is the
// Content-Type, the second X-Datadog-Additional-Tags, the rest the multipart body. This reaches both
// upload forms, event.json, the tags, and every attachment kind (pprof raw/gzip/zstd, JFR) with the
// span-link rewrite.
#include "tests/support/flat_request.h"
#include "receivers/datadog/convert.h"
#include "receivers/datadog/intake.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proflow;
  using namespace proflow::receivers::datadog;
  fuzz::FuzzInput in(data, size);
  const std::string_view content_type = in.line();
  Tags header_tags;
  splitTags(in.line(), &header_tags);
  Intake intake;
  if (!parseIntake(content_type, in.rest(), &intake).isOk()) return 0;
  flat::Batch batch;
  if (!convertIntake(intake, header_tags, {}, &batch).isOk()) return 0;
  otlp::Request request;
  if (!flat::toRequest(batch, &request).isOk()) return 0;
  fuzz::checkConvertedRequest(request, "datadog intake");
  return 0;
}
