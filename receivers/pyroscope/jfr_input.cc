#include "receivers/pyroscope/jfr_input.h"

#include <span>
#include <string>

#include "core/compression/compression.h"
#include "core/flat/flat_attributes.h"
#include "core/flat/flat_merge.h"
#include "core/formats/jfr/context_labels.h"
#include "core/formats/jfr/flat_converter.h"
#include "core/util/ascii.h"
#include "core/util/pyroscope_metric.h"
#include "receivers/pyroscope/flat_edit.h"
#include "core/net/multipart.h"
#include "receivers/pyroscope/profile_types.h"

namespace proflow::receivers::pyroscope {
namespace {

using net::FormPart;
using net::multipartBoundary;
using net::parseMultipart;

// A part as sent (`data`) or inflated into `storage`: gzip (what pyroscope-java sends unless
// compression is off) and zstd are recognised by their magic bytes; anything else is taken as is.
// Both forms are bounded by the profile size limit, inflation also by the ratio limit.
Status inflatePart(std::string_view what, std::string_view data, const compression::Limits& limits,
                   std::string* storage, std::string_view* out) {
  if (Status s = compression::inflateOrView(data, limits, storage, out); !s.isOk())
    return Status(s.code(), std::string(what) + ": " + s.message());
  return Status::ok();
}

struct JfrParts {
  std::string_view jfr;
  std::string_view labels;  // empty: no labels part
  bool has_labels = false;
};

Status splitParts(std::string_view content_type, std::string_view body, JfrParts* parts) {
  const std::string ct = toLowerAscii(content_type);
  if (ct.find("multipart/form-data") == std::string::npos) {
    parts->jfr = body;  // without multipart the whole body is the recording
    return Status::ok();
  }
  std::vector<FormPart> form;
  if (Status s = parseMultipart(body, multipartBoundary(content_type), &form); !s.isOk()) return s;
  bool has_jfr = false;
  for (const auto& part : form) {
    if (part.name == "jfr") {
      parts->jfr = part.data;
      has_jfr = true;
    } else if (part.name == "labels") {
      parts->labels = part.data;
      parts->has_labels = true;
    }
  }
  if (!has_jfr) return Status::invalid("multipart: the 'jfr' part is required (jfr field is required)");
  return Status::ok();
}

// Resource attributes, scope, time window and metric family on the profiles just converted.
void annotate(const IngestParams& p, flat::Batch* out) {
  const uint32_t r = static_cast<uint32_t>(out->resources.size() - 1);
  for (const auto& [k, v] : ingestResourceAttributes(p, p.app_name)) flat::addResourceAttribute(*out, r, k, v, false);
  flat::Scope& scope = out->scopes[out->resources[r].last_scope];
  scope.present = true;
  scope.name = out->addBytes(kScopeName);
  flat::DictionaryIndex dict(out);
  const flat::Range profiles = scope.profiles;
  for (uint32_t i = profiles.begin; i < profiles.end(); ++i) {
    flat::Profile& prof = out->profiles[i];
    if (p.from_given) {
      // The agent's upload window, as Pyroscope stores JFR uploads (the recording may start earlier
      // when the profiler's chunk spans several uploads).
      prof.time_unix_nano = static_cast<uint64_t>(p.from_ns);
      if (p.until_ns > p.from_ns)  // fits in uint64 whatever the dates
        prof.duration_nano = static_cast<uint64_t>(p.until_ns) - static_cast<uint64_t>(p.from_ns);
    }
    const std::string type(out->string(prof.sample_type.type_strindex));
    const std::string period(out->string(prof.period_type.type_strindex));
    std::string metric = jfrMetricFor(type, period);
    if (metric.empty()) metric = type;
    addProfileAttribute(*out, i, dict.stringAttribute(attr::kProfileName, metric));
  }
}

}  // namespace

std::string jfrMetricFor(std::string_view sample_type, std::string_view period_type) {
  if (sample_type == "contentions" || sample_type == "delay") {
    if (period_type == "mutex") return "mutex";
    if (period_type == "block") return "block";
  }
  if (sample_type == "live" || sample_type.substr(0, 7) == "malloc_") return "memory";
  return pyroscopeMetricFamily(sample_type);
}

Status convertJfrIngest(const IngestParams& p, std::string_view content_type, std::string_view body,
                        const ConvertOptions& options, flat::Batch* out) {
  JfrParts parts;
  if (Status s = splitParts(content_type, body, &parts); !s.isOk()) return s;

  jfr::ContextLabels labels;
  std::string labels_storage;
  size_t held = 0;  // bytes kept here beside the recording's conversion
  if (parts.has_labels) {
    std::string_view bytes;
    if (Status s = inflatePart("labels part", parts.labels, options.limits, &labels_storage, &bytes); !s.isOk())
      return s;
    // Parsed labels: every pair becomes two strings and a vector slot (about 100 bytes) for a pair
    // that takes at least 4 bytes on the wire.
    held = labels_storage.size() + 32 * bytes.size();
    if (options.reserve_memory)
      if (Status s = options.reserve_memory(held); !s.isOk()) return s;
    std::string error;
    if (!labels.parse(bytes, &error))
      return Status::invalid("labels part is not a LabelsSnapshot protobuf: " + error);
  }

  std::string jfr_storage;
  std::string_view jfr_bytes;
  if (Status s = inflatePart("jfr part", parts.jfr, options.limits, &jfr_storage, &jfr_bytes); !s.isOk()) return s;
  if (jfr_bytes.empty()) return Status::invalid("JFR: the recording is empty");

  jfr::ConvertOptions jo;
  // pyroscope-java sends sampleRate for cpu/itimer/wall: Pyroscope's period is 1e9/sampleRate ns.
  if (p.sample_rate_given) jo.cpu_period_nanos = 1'000'000'000 / p.sample_rate;
  if (parts.has_labels) jo.labels = &labels;
  jo.merge_generated_names = options.merge_generated_names;
  // The converter claims the recording's estimate before reading it, then ahead of its output.
  if (options.reserve_memory)
    jo.reserve_memory = [&options, held](size_t conversion) { return options.reserve_memory(held + conversion); };
  const auto span = std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(jfr_bytes.data()), jfr_bytes.size());
  const jfr::ConvertResult r = jfr::convertToFlat(span, jo, out);
  if (!r.refused.isOk()) return r.refused;
  // A damaged recording is refused whole (the agent logs it); nothing half-read is acknowledged.
  if (!r.ok) return Status::invalid("JFR: " + r.error.toString());
  if (r.chunks == 0 || out->resources.empty()) return Status::invalid("JFR: no chunk in the input");
  annotate(p, out);
  return Status::ok();
}

}  // namespace proflow::receivers::pyroscope
