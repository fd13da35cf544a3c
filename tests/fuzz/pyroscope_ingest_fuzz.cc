// Pyroscope's `POST /ingest` as the receiver converts it, without the socket: the first line is the
// query string (`name=app{k=v}&format=jfr&...`), the second the Content-Type, the rest the body. This
// reaches every body format: folded/lines text, pprof (raw, gzip, multipart with sample_type_config),
// JFR (raw or multipart with a LabelsSnapshot part).
#include "tests/support/flat_request.h"
#include "core/net/http_types.h"
#include "receivers/pyroscope/ingest_converter.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace proflow;
  using namespace proflow::receivers::pyroscope;
  fuzz::FuzzInput in(data, size);
  const auto query = net::parseQuery(in.line());
  const std::string_view content_type = in.line();
  IngestParams params;
  if (!parseIngestParams(query, 1'700'000'000'000'000'000, &params).isOk()) return 0;
  flat::Batch batch;
  if (!convertIngest(params, content_type, in.rest(), {}, &batch).isOk()) return 0;
  otlp::Request request;
  if (!flat::toRequest(batch, &request).isOk()) return 0;
  fuzz::checkConvertedRequest(request, "pyroscope ingest");
  return 0;
}
