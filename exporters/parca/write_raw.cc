#include "exporters/parca/write_raw.h"

#include <vector>

#include "core/flat/flat_attributes.h"
#include "core/formats/pprof/flat_to_pprof.h"
#include "core/util/prometheus_labels.h"
#include "core/util/pyroscope_metric.h"

namespace proflow::exporters::parca {
namespace {

using Labels = std::map<std::string, std::string>;

std::string metricName(const flat::Batch& b, const std::vector<uint32_t>& profiles) {
  for (uint32_t p : profiles)
    if (auto name = flat::profileAttribute(b, b.profiles[p], "pyroscope.profile.name"); name && !name->empty())
      return *name;
  for (uint32_t p : profiles)
    if (std::string m = pyroscopeMetricFamily(b.string(b.profiles[p].sample_type.type_strindex)); !m.empty()) return m;
  return profiles.empty() ? "unknown" : sanitizeLabelName(b.string(b.profiles[profiles[0]].sample_type.type_strindex));
}

Labels resourceLabels(const flat::Batch& b, const flat::Resource& r) {
  Labels labels;
  for (auto& [key, value] : flat::scalarKeyValues(b, r.attributes)) {
    std::string name = sanitizeLabelName(key);
    if (name.rfind("__", 0) == 0 || value.empty()) continue;
    labels.emplace(std::move(name), std::move(value));  // first of a sanitised clash wins
  }
  return labels;
}

}  // namespace

Status buildWriteRaw(const flat::Batch& batch, const std::map<std::string, std::string>& external_labels,
                     store::WriteRawRequest* out) {
  out->Clear();
  std::vector<pprof::EncodedPprof> encoded;
  if (Status s = pprof::flatToPprofBytes(batch, &encoded); !s.isOk()) return s;
  std::map<Labels, store::RawProfileSeries*> by_labels;
  for (auto& e : encoded) {
    const std::vector<uint32_t> profiles = pprof::sourceProfiles(batch, e.resource_index, e.scope_index, e.profile_indices);
    Labels labels = resourceLabels(batch, batch.resources.at(static_cast<size_t>(e.resource_index)));
    for (const auto& [k, v] : external_labels) labels[k] = v;
    labels["__name__"] = metricName(batch, profiles);
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
