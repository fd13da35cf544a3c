// otlp_proto records: each ProfilesData serialized and prefixed by its size as a 4-byte big-endian
// integer (the OpenTelemetry Collector file exporter's proto format). ExportProfilesServiceRequest and
// ProfilesData are wire-identical, so the request is serialized as is.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/model/otlp_types.h"

namespace proflow::exporters::file {

// Splits a whole otlp_proto file back into messages. Returns false (with `error`) on a truncated or
// unparsable record; the records before it are in `out`.
bool decodeOtlpProtoRecords(std::string_view data, std::vector<otlp::Request>* out, std::string* error);

}  // namespace proflow::exporters::file
