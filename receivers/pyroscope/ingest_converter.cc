#include "receivers/pyroscope/ingest_converter.h"

#include <algorithm>
#include <optional>

#include "core/formats/folded/folded.h"
#include "core/formats/pprof/pprof_codec.h"
#include "core/formats/pprof/pprof_to_flat.h"
#include "core/net/multipart.h"
#include "core/util/ascii.h"
#include "core/util/pyroscope_metric.h"
#include "core/util/saturating.h"
#include "core/util/utf8.h"
#include "receivers/pyroscope/flat_edit.h"
#include "receivers/pyroscope/jfr_input.h"
#include "receivers/pyroscope/profile_types.h"
#include "receivers/pyroscope/sample_type_config.h"

namespace proflow::receivers::pyroscope {
namespace {

using net::FormPart;
using net::multipartBoundary;
using net::parseMultipart;

// pprof time_nanos inside 1970 means an old client wrote µs or nothing: Pyroscope uses `from`.
constexpr int64_t kFirstYearNs = 365LL * 86400 * 1'000'000'000;

enum class BodyKind { kPprof, kMultipart, kFolded, kLines, kJfr };

// gzip/zstd, or an uncompressed protobuf: field 1 (sample_type) first and binary bytes early on.
bool looksLikePprof(std::string_view body) {
  const auto codec = compression::detectCodec(body);
  if (codec == compression::Codec::kGzip || codec == compression::Codec::kZstd) return true;
  if (body.empty() || body[0] != 0x0a) return false;
  const std::string_view head = body.substr(0, 256);
  return std::any_of(head.begin(), head.end(), [](char c) { return static_cast<unsigned char>(c) < 0x09; });
}

Status chooseKind(const IngestParams& p, std::string_view content_type, std::string_view body, BodyKind* kind) {
  const std::string ct = toLowerAscii(content_type);
  const bool multipart = ct.find("multipart/form-data") != std::string::npos;
  const std::string& f = p.format;
  auto unsupported = [](const std::string& what) {
    return Status(StatusCode::kUnimplemented, what + " is not supported by proflow's pyroscope receiver; send pprof "
                                                     "(format=pprof or multipart), JFR (format=jfr) or folded text");
  };
  if (f == "trie" || ct.find("binary/octet-stream+trie") != std::string::npos) return unsupported("format=trie");
  if (f == "tree" || ct.find("binary/octet-stream+tree") != std::string::npos) return unsupported("format=tree");
  if (f == "jfr") {  // raw JFR, or multipart parts `jfr` + `labels` (jfr_input.h)
    *kind = BodyKind::kJfr;
    return Status::ok();
  }
  if (f == "speedscope") return unsupported("format=speedscope");
  if (f == "lines") *kind = BodyKind::kLines;
  else if (f == "pprof") *kind = multipart ? BodyKind::kMultipart : BodyKind::kPprof;
  else if (f.empty() && multipart) *kind = BodyKind::kMultipart;
  else if (f.empty() && looksLikePprof(body)) *kind = BodyKind::kPprof;
  else *kind = BodyKind::kFolded;
  return Status::ok();
}

const SampleTypeSettings* settingsFor(const SampleTypeConfig* cfg, std::string_view type) {
  if (!cfg) return nullptr;
  auto it = cfg->find(type);
  return it == cfg->end() ? nullptr : &it->second;
}

// On the profiles just converted from one pprof (one per sample type): a time inside 1970 means an
// old client wrote µs or nothing, so Pyroscope's `from`/`until` stand in.
void fixTimes(const IngestParams& p, flat::Batch* out) {
  const flat::Range scope = lastScopeProfiles(*out);
  for (uint32_t i = scope.begin; i < scope.end(); ++i) {
    flat::Profile& prof = out->profiles[i];
    if (static_cast<int64_t>(prof.time_unix_nano) < kFirstYearNs) prof.time_unix_nano = static_cast<uint64_t>(p.from_ns);
    if (static_cast<int64_t>(prof.duration_nano) <= 0 && p.until_ns > p.from_ns)
      prof.duration_nano = static_cast<uint64_t>(p.until_ns) - static_cast<uint64_t>(p.from_ns);  // fits: until > from
  }
}

// sample_type_config `units` rewrite the units; the metric family comes from the first sample type
// (or display-name) that has one.
std::string applyConfig(const SampleTypeConfig* cfg, flat::Batch* out, flat::DictionaryIndex& dict) {
  std::string metric;
  const flat::Range scope = lastScopeProfiles(*out);
  for (uint32_t i = scope.begin; i < scope.end(); ++i) {
    const std::string type(out->string(out->profiles[i].sample_type.type_strindex));
    const SampleTypeSettings* s = settingsFor(cfg, type);
    if (s && !s->units.empty()) {
      const int32_t unit = dict.string(pprofUnitFor(s->units));
      out->profiles[i].sample_type.present = true;
      out->profiles[i].sample_type.unit_strindex = unit;
    }
    if (metric.empty()) metric = pyroscopeMetricFamily(s && !s->display_name.empty() ? s->display_name : type);
  }
  if (metric.empty() && scope.size > 0) metric = out->string(out->profiles[scope.begin].sample_type.type_strindex);
  return metric;
}

// Adds Pyroscope's per-profile facts as attributes on the profiles of the scope just converted.
void annotate(flat::Batch* out, flat::DictionaryIndex& dict, const std::string& metric, const SampleTypeConfig* cfg,
              const std::string& folded_aggregation) {
  const flat::Range scope = lastScopeProfiles(*out);
  for (uint32_t i = scope.begin; i < scope.end(); ++i) {
    const std::string type(out->string(out->profiles[i].sample_type.type_strindex));
    addProfileAttribute(*out, i, dict.stringAttribute(attr::kProfileName, metric));
    std::string aggregation = folded_aggregation;
    if (const SampleTypeSettings* s = settingsFor(cfg, type)) {
      if (!s->display_name.empty()) addProfileAttribute(*out, i, dict.stringAttribute(attr::kDisplayName, s->display_name));
      if (!s->aggregation.empty()) aggregation = s->aggregation;
      if (s->cumulative) addProfileAttribute(*out, i, dict.boolAttribute(attr::kCumulative, true));
    }
    if (!aggregation.empty() && aggregation != "sum")
      addProfileAttribute(*out, i, dict.stringAttribute(attr::kAggregation, aggregation));
  }
}

pprof::PprofToOtlpOptions scopeOptions(const IngestParams& p, const std::string& app_service) {
  pprof::PprofToOtlpOptions o;
  o.resource_attributes = ingestResourceAttributes(p, app_service);
  o.scope_name = std::string(kScopeName);
  return o;
}

// Straight from the pushed bytes (pprofBytesToFlat reads the wire format in place); Pyroscope's
// time and unit rules are applied to the converted profiles.
Status convertPprof(const IngestParams& p, std::string_view data, const SampleTypeConfig* cfg,
                    const ConvertOptions& options, flat::Batch* out) {
  pprof::DecodeOptions d;
  d.limits = options.limits;
  pprof::PprofToOtlpOptions o = scopeOptions(p, p.app_name);
  o.reserve_memory = options.reserve_memory;  // asked for the inflated pprof + conversion
  if (Status s = pprof::pprofBytesToFlat(data, o, out, d); !s.isOk()) return s;
  fixTimes(p, out);
  flat::DictionaryIndex dict(out);
  const std::string metric = applyConfig(cfg, out, dict);
  annotate(out, dict, metric, cfg, "");
  return Status::ok();
}

Status convertMultipart(const IngestParams& p, std::string_view content_type, std::string_view body,
                        const ConvertOptions& options, flat::Batch* out) {
  std::vector<FormPart> parts;
  if (Status s = parseMultipart(body, multipartBoundary(content_type), &parts); !s.isOk()) return s;
  const FormPart* profile = nullptr;
  const FormPart* config = nullptr;
  for (const auto& part : parts) {
    if (part.name == "prev_profile")
      return Status::invalid("unsupported client version: the 'prev_profile' part (cumulative uploads of old "
                             "pyroscope-go clients) is not supported; upgrade the SDK");
    if (part.name == "profile") profile = &part;
    if (part.name == "sample_type_config") config = &part;
  }
  if (!profile) return Status::invalid("multipart: the 'profile' part is required");
  SampleTypeConfig cfg;
  if (config) {
    std::string json;
    if (Status s = compression::decompressAuto(config->data, json, options.limits); !s.isOk())
      return Status(s.code(), "sample_type_config: " + s.message());
    if (Status s = parseSampleTypeConfig(json, &cfg); !s.isOk()) return s;
  }
  return convertPprof(p, profile->data, config ? &cfg : nullptr, options, out);
}

Status convertText(const IngestParams& p, std::string_view body, bool lines, const ConvertOptions& options,
                   flat::Batch* out) {
  if (!isValidUtf8(body)) return Status::invalid("folded text is not valid UTF-8");
  LegacyType type;
  std::string service;
  if (Status s = legacyTypeFor(p.app_name, p.units, &type, &service); !s.isOk()) return s;
  folded::FoldedOptions in;
  in.lines_format = lines;
  in.sample_type = type.sample_type;
  in.sample_unit = type.unit;
  in.period_type = type.period_type;
  in.period_unit = type.period_unit;
  // CPU-like types count samples taken at sampleRate Hz: each is worth one period of nanoseconds.
  in.period = type.scale_by_rate ? 1'000'000'000 / std::max<int64_t>(1, p.sample_rate) : 1;
  in.scale_by_period = type.scale_by_rate;
  in.time_ns = p.from_ns;
  in.duration_ns = std::max<int64_t>(0, saturatingSub(p.until_ns, p.from_ns));  // the dates are the client's
  if (Status s = folded::foldedToFlat(body, in, scopeOptions(p, service), 0, options.reserve_memory, out); !s.isOk())
    return s;
  flat::DictionaryIndex dict(out);
  annotate(out, dict, std::string(type.metric), nullptr, p.aggregation);
  return Status::ok();
}

}  // namespace

Status convertIngest(const IngestParams& params, std::string_view content_type, std::string_view body,
                     const ConvertOptions& options, flat::Batch* out) {
  BodyKind kind = BodyKind::kFolded;
  if (Status s = chooseKind(params, content_type, body, &kind); !s.isOk()) return s;
  switch (kind) {
    case BodyKind::kPprof: return convertPprof(params, body, nullptr, options, out);
    case BodyKind::kMultipart: return convertMultipart(params, content_type, body, options, out);
    case BodyKind::kFolded: return convertText(params, body, false, options, out);
    case BodyKind::kLines: return convertText(params, body, true, options, out);
    case BodyKind::kJfr: return convertJfrIngest(params, content_type, body, options, out);
  }
  return Status::internal("unreachable");
}

std::vector<std::pair<std::string, std::string>> ingestResourceAttributes(const IngestParams& p,
                                                                          const std::string& app_service) {
  std::vector<std::pair<std::string, std::string>> attrs;
  std::string service = app_service;
  for (const auto& [k, v] : p.labels)
    if (k == "service_name") service = v;
  attrs.emplace_back(attr::kServiceName, service);
  if (service != app_service) attrs.emplace_back(attr::kAppName, app_service);
  for (const auto& [k, v] : p.labels)
    if (k != "service_name") attrs.emplace_back(k, v);
  attrs.emplace_back(attr::kSpyName, p.spy_name);
  return attrs;
}

}  // namespace proflow::receivers::pyroscope
