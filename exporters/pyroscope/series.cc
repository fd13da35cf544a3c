#include "exporters/pyroscope/series.h"

#include <algorithm>
#include <cctype>
#include <random>

#include "core/flat/flat_attributes.h"
#include "core/formats/pprof/flat_to_pprof.h"
#include "core/util/hex.h"
#include "core/util/percent_encoding.h"
#include "core/util/pyroscope_metric.h"

namespace proflow::exporters::pyroscope {
namespace {

// Attributes written by proflow's pyroscope receiver (kept in sync by name, not by code: components
// do not depend on each other).
constexpr std::string_view kProfileNameAttr = "pyroscope.profile.name";
constexpr std::string_view kCumulativeAttr = "pyroscope.cumulative";
constexpr std::string_view kSpyNameAttr = "pyroscope.spy_name";
constexpr size_t kMaxLabelValue = 2048;  // Pyroscope rejects longer values (max-length-label-value)
constexpr size_t kMaxLabelName = 1024;   // and longer names (max-length-label-name)
constexpr size_t kMaxLabels = 30;        // and more names per series (max-label-names-per-series)

// Profile attribute `key` of one OTLP profile, as text; "" when absent or not a scalar.
std::string profileAttr(const flat::Batch& b, const flat::Profile& p, std::string_view key) {
  for (int32_t i : b.indexList(p.attributes)) {
    if (i < 0 || static_cast<size_t>(i) >= b.attributes.size()) continue;
    const flat::Attribute& a = b.attributes[static_cast<size_t>(i)];
    if (b.string(a.key_strindex) == key) return flat::scalarText(b, a.value).value_or("");
  }
  return {};
}

std::string metricName(const flat::Batch& b, const std::vector<const flat::Profile*>& profiles) {
  for (const auto* p : profiles)
    if (std::string m = profileAttr(b, *p, kProfileNameAttr); !m.empty()) return m;
  for (const auto* p : profiles)
    if (std::string m = pyroscopeMetricFamily(b.string(p->sample_type.type_strindex)); !m.empty()) return m;
  return profiles.empty() ? "unknown" : sanitizeLabelName(b.string(profiles[0]->sample_type.type_strindex));
}

std::map<std::string, std::string> resourceLabels(const flat::Batch& b, const flat::Resource& r) {
  std::map<std::string, std::string> labels;
  std::string service = "unknown_service";
  flat::forEachKeyValue(b, r.attributes, [&](std::string_view key, const flat::KeyValue& kv) {
    std::optional<std::string> text = flat::scalarText(b, kv.value);
    if (!text) return;
    std::string value = std::move(*text);
    if (value.empty() || value.size() > kMaxLabelValue) return;
    if (key == "service.name") {
      service = std::move(value);
      return;
    }
    std::string name = key == kSpyNameAttr ? "pyroscope_spy" : sanitizeLabelName(key);
    if (name.rfind("__", 0) == 0 || name.size() > kMaxLabelName) return;  // __*: reserved for Pyroscope
    labels[name] = std::move(value);
  });
  labels["service_name"] = service;
  return labels;
}

// The n-th scope of resource `r` (n counts from 0 in the resource's order).
const flat::Scope& scopeAt(const flat::Batch& b, const flat::Resource& r, int n) {
  uint32_t s = r.first_scope;
  for (int i = 0; i < n; ++i) s = b.scopes[s].next_scope;
  return b.scopes[s];
}

// Pyroscope refuses a series with more than 30 label names. service_name, the external labels,
// __name__ and __delta__ always stay; resource attributes fill the rest in name order.
void capResourceLabels(std::map<std::string, std::string>* labels, const std::map<std::string, std::string>& external) {
  size_t budget = kMaxLabels - std::min(kMaxLabels, external.size() + 3);
  for (auto it = labels->begin(); it != labels->end();) {
    if (it->first == "service_name" || external.count(it->first) > 0) {
      ++it;  // counted above
    } else if (budget > 0) {
      --budget;
      ++it;
    } else {
      it = labels->erase(it);
    }
  }
}

}  // namespace

Status buildSeries(const flat::Batch& batch, const SeriesOptions& options, std::vector<Series>* out) {
  out->clear();
  std::vector<pprof::EncodedPprof> encoded;
  if (Status s = pprof::flatToPprofBytes(batch, &encoded); !s.isOk()) return s;
  std::map<Labels, size_t> index;
  for (auto& e : encoded) {
    const flat::Resource& r = batch.resources[static_cast<size_t>(e.resource_index)];
    const flat::Scope& scope = scopeAt(batch, r, e.scope_index);
    std::vector<const flat::Profile*> profiles;
    for (int i : e.profile_indices) profiles.push_back(&batch.profiles[scope.profiles.begin + static_cast<uint32_t>(i)]);
    std::map<std::string, std::string> labels = resourceLabels(batch, r);
    capResourceLabels(&labels, options.external_labels);
    for (const auto& [k, v] : options.external_labels) labels[k] = v;
    labels["__name__"] = metricName(batch, profiles);
    bool cumulative = false;
    for (const auto* p : profiles) cumulative = cumulative || profileAttr(batch, *p, kCumulativeAttr) == "true";
    if (!cumulative) labels["__delta__"] = "false";  // already a delta: the server must not difference it
    Labels sorted(labels.begin(), labels.end());
    auto [it, added] = index.try_emplace(sorted, out->size());
    if (added) out->push_back(Series{std::move(sorted), {}});
    SeriesProfile sp;
    sp.raw_profile = std::move(e.data);
    if (!profiles.empty()) {
      sp.time_ns = static_cast<int64_t>(profiles[0]->time_unix_nano);
      sp.duration_ns = static_cast<int64_t>(profiles[0]->duration_nano);
    }
    (*out)[it->second].profiles.push_back(std::move(sp));
  }
  return Status::ok();
}

push::v1::PushRequest encodePushRequest(const std::vector<Series>& series) {
  push::v1::PushRequest req;
  for (const auto& s : series) {
    auto* rs = req.add_series();
    for (const auto& [k, v] : s.labels) {
      auto* l = rs->add_labels();
      l->set_name(k);
      l->set_value(v);
    }
    for (const auto& p : s.profiles) {
      auto* sample = rs->add_samples();
      sample->set_raw_profile(p.raw_profile);
      sample->set_id(randomUuid());
    }
  }
  return req;
}

namespace {

// Pyroscope's name syntax has no escaping: characters it cannot carry become '_'.
std::string nameSafe(std::string_view s, bool app_name) {
  std::string out(s);
  for (char& c : out) {
    const bool alnum = std::isalnum(static_cast<unsigned char>(c));
    if (app_name ? !(alnum || c == '_' || c == '.' || c == '-' || c == '/') : (c == ',' || c == '{' || c == '}'))
      c = '_';
  }
  return out;
}

std::string timeParam(int64_t ns) {
  if (ns >= 1'000'000'000'000'000'000) return std::to_string(ns);  // 19 digits: read as ns
  return std::to_string(ns / 1'000'000'000);                         // anything else: seconds
}

}  // namespace

std::string ingestTarget(const Series& series, const SeriesProfile& profile) {
  std::string service = "unknown_service", spy, labels;
  for (const auto& [k, v] : series.labels) {
    if (k == "service_name") service = v;
    else if (k == "pyroscope_spy") spy = v;
    else if (k.rfind("__", 0) != 0) labels += (labels.empty() ? "" : ",") + k + "=" + nameSafe(v, false);
  }
  std::string target = "/ingest?name=" + percentEncode(nameSafe(service, true) + "{" + labels + "}") + "&format=pprof";
  if (profile.time_ns > 0) {
    target += "&from=" + timeParam(profile.time_ns);
    target += "&until=" + timeParam(profile.time_ns + profile.duration_ns);
  }
  if (!spy.empty()) target += "&spyName=" + percentEncode(spy);
  return target;
}

std::string randomUuid() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  const uint64_t hi = (rng() & ~0xf000ull) | 0x4000ull;                    // version 4
  const uint64_t lo = (rng() & ~(0xc000ull << 48)) | (0x8000ull << 48);  // variant 10
  std::string out;
  for (int i = 0; i < 32; ++i) {
    const uint64_t word = i < 16 ? hi : lo;
    out.push_back(hexDigitChar(static_cast<unsigned>(word >> (60 - 4 * (i % 16)))));
    if (i == 7 || i == 11 || i == 15 || i == 19) out.push_back('-');
  }
  return out;
}

}  // namespace proflow::exporters::pyroscope
