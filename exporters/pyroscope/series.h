// OTLP batch -> Pyroscope series: what the exporter sends, as pure functions (no network) so tests
// can check payloads directly.
//
// Each pprof rebuilt from the batch (core/formats/pprof: profiles that came from one pprof become one
// pprof again) is a RawSample; its series labels are
//   __name__      Pyroscope metric family: the profile's pyroscope.profile.name attribute, else derived
//                 from the sample types (cpu -> process_cpu, wall, alloc_/inuse_ -> memory, ...)
//   service_name  resource service.name ("unknown_service" when absent)
//   __delta__     "false" (OTLP profiles are deltas) unless marked pyroscope.cumulative
//   <resource attributes>  names sanitised to [a-zA-Z_][a-zA-Z0-9_]* (pyroscope.spy_name -> pyroscope_spy)
//   <external_labels>      override resource attributes
// Samples with identical label sets share one series.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/flat/flat_batch.h"
#include "core/util/prometheus_labels.h"
#include "core/util/status.h"
#include "pyroscope/push/v1/push.pb.h"

namespace proflow::exporters::pyroscope {

using Labels = std::vector<std::pair<std::string, std::string>>;  // sorted by name, unique

struct SeriesProfile {
  std::string raw_profile;  // gzip pprof
  int64_t time_ns = 0;
  int64_t duration_ns = 0;
};

struct Series {
  Labels labels;
  std::vector<SeriesProfile> profiles;
};

struct SeriesOptions {
  std::map<std::string, std::string> external_labels;
};

// Label names: isValidLabelName / sanitizeLabelName from core/util/prometheus_labels.h.

// Errors (kInvalidArgument) come from the OTLP -> pprof conversion (dangling dictionary indexes).
// Reads the flat batch directly (flat_to_pprof), without the protobuf request.
Status buildSeries(const flat::Batch& batch, const SeriesOptions& options, std::vector<Series>* out);

// The push API body; RawSample.ID is a random UUID (v4) per profile.
push::v1::PushRequest encodePushRequest(const std::vector<Series>& series);

// `/ingest?name=...&from=...&until=...&format=pprof[&spyName=...]` for one profile of a series: the name
// is service_name{labels} in Pyroscope's syntax (characters it cannot carry replaced by '_'), from/until
// in ns; __name__ and __delta__ are left to the server.
std::string ingestTarget(const Series& series, const SeriesProfile& profile);

// A random RFC 4122 version 4 UUID, lower-case hex with dashes.
std::string randomUuid();

}  // namespace proflow::exporters::pyroscope
