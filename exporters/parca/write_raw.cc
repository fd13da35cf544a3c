#include "exporters/parca/write_raw.h"

#include <vector>

#include "core/dictionary_builder.h"
#include "core/formats/pprof/otlp_to_pprof.h"
#include "core/profile_attributes.h"
#include "core/prometheus_labels.h"
#include "core/pyroscope_metric.h"

namespace proflow::exporters::parca {
namespace {

namespace model = ::proflow::otlp;
using Labels = std::map<std::string, std::string>;

std::string metricName(const model::Dictionary& d, const std::vector<const model::Profile*>& profiles) {
  for (const auto* p : profiles)
    if (auto name = findProfileAttribute(*p, d, "pyroscope.profile.name"); name && !name->empty()) return *name;
  for (const auto* p : profiles)
    if (std::string m = pyroscopeMetricFamily(dictString(d, p->sample_type().type_strindex())); !m.empty()) return m;
  return profiles.empty() ? "unknown" : sanitizeLabelName(dictString(d, profiles[0]->sample_type().type_strindex()));
}

Labels resourceLabels(const model::ResourceProfiles& rp, const model::Dictionary& d) {
  Labels labels;
  for (auto& [key, value] : scalarAttributes(rp.resource().attributes(), d)) {
    std::string name = sanitizeLabelName(key);
    if (name.rfind("__", 0) == 0 || value.empty()) continue;
    labels.emplace(std::move(name), std::move(value));  // first of a sanitised clash wins
  }
  return labels;
}

}  // namespace

Status buildWriteRaw(const model::Request& batch, const std::map<std::string, std::string>& external_labels,
                     store::WriteRawRequest* out) {
  out->Clear();
  std::vector<pprof::EncodedPprof> encoded;
  if (Status s = pprof::otlpToPprofBytes(batch, &encoded); !s.isOk()) return s;
  const auto& dict = batch.dictionary();
  std::map<Labels, store::RawProfileSeries*> by_labels;
  for (auto& e : encoded) {
    const auto& rp = batch.resource_profiles(e.resource_index);
    const auto& scope = rp.scope_profiles(e.scope_index);
    std::vector<const model::Profile*> profiles;
    for (int i : e.profile_indices) profiles.push_back(&scope.profiles(i));
    Labels labels = resourceLabels(rp, dict);
    for (const auto& [k, v] : external_labels) labels[k] = v;
    labels["__name__"] = metricName(dict, profiles);
    auto [it, added] = by_labels.try_emplace(labels, nullptr);
    if (added) {
      it->second = out->add_series();
      for (const auto& [k, v] : labels) {  // std::map: sorted, unique
        auto* l = it->second->mutable_labels()->add_labels();
        l->set_name(k);
        l->set_value(v);
      }
    }
    it->second->add_samples()->set_raw_profile(std::move(e.data));
  }
  return Status::ok();
}

}  // namespace proflow::exporters::parca
