#include "processors/attributes/attributes_processor.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/dictionary_builder.h"

namespace proflow::processors::attributes {
namespace {

using proflow::attributes::ActionSet;
using proflow::attributes::Attr;
using proflow::attributes::AttrList;
using Indices = google::protobuf::RepeatedField<int32_t>;

std::string serviceOf(const otlp::ResourceProfiles& rp, const otlp::Dictionary& dict) {
  for (const auto& kv : rp.resource().attributes()) {
    std::string_view key = kv.key_strindex() != 0 ? dictString(dict, kv.key_strindex()) : kv.key();
    if (key != "service.name") continue;
    const auto& v = kv.value();
    return std::string(v.has_string_value_strindex() ? dictString(dict, v.string_value_strindex()) : v.string_value());
  }
  return {};
}

// Rewrites attribute lists of one request. Samples often share the same list, so each distinct
// list is edited once and the answer reused.
class SampleEditor {
 public:
  SampleEditor(const ActionSet& actions, otlp::Dictionary* dict) : actions_(actions), dict_(dict) {}

  // True when the sample's list changed.
  bool edit(otlp::Sample& sample) {
    std::string key(reinterpret_cast<const char*>(sample.attribute_indices().data()),
                    sample.attribute_indices().size() * sizeof(int32_t));
    auto it = cache_.find(key);
    if (it == cache_.end()) it = cache_.emplace(std::move(key), rewrite(sample.attribute_indices())).first;
    if (!it->second) return false;
    sample.mutable_attribute_indices()->Assign(it->second->begin(), it->second->end());
    return true;
  }

 private:
  AttrList read(const Indices& indices) const {
    AttrList out;
    out.reserve(indices.size());
    for (int i = 0; i < indices.size(); ++i) {
      int32_t idx = indices[i];
      if (idx <= 0 || idx >= dict_->attribute_table_size()) continue;  // receivers reject these; be safe
      const auto& e = dict_->attribute_table(idx);
      Attr a{std::string(dictString(*dict_, e.key_strindex())), e.value(), i, false};
      if (a.value.value_case() == otlp::AnyValue::kStringValueStrindex)
        a.value.set_string_value(std::string(dictString(*dict_, e.value().string_value_strindex())));
      out.push_back(std::move(a));
    }
    return out;
  }

  // nullopt when the actions leave the list as it is.
  std::optional<std::vector<int32_t>> rewrite(const Indices& indices) {
    AttrList attrs = read(indices);
    if (!actions_.apply(attrs)) return std::nullopt;
    if (!builder_) builder_.emplace(dict_);  // indexes the dictionary once, on the first edit
    std::vector<int32_t> out;
    out.reserve(attrs.size());
    for (const auto& a : attrs) {
      if (!a.changed && a.origin >= 0) {
        out.push_back(indices[a.origin]);
        continue;
      }
      // An edited entry keeps its unit; a new one has none.
      std::string unit;
      if (a.origin >= 0) unit = std::string(dictString(*dict_, dict_->attribute_table(indices[a.origin]).unit_strindex()));
      out.push_back(builder_->attribute(a.key, a.value, unit));
    }
    return out;
  }

  const ActionSet& actions_;
  otlp::Dictionary* dict_;
  std::optional<DictionaryBuilder> builder_;
  std::unordered_map<std::string, std::optional<std::vector<int32_t>>> cache_;
};

}  // namespace

EditCounts applyToSamples(const ActionSet& actions, const ProfileMatcher& matcher, otlp::Request& request) {
  EditCounts counts;
  otlp::Dictionary* dict = request.mutable_dictionary();
  SampleEditor editor(actions, dict);
  for (auto& rp : *request.mutable_resource_profiles()) {
    std::string service = matcher.filters() ? serviceOf(rp, *dict) : std::string();
    for (auto& sp : *rp.mutable_scope_profiles()) {
      for (auto& p : *sp.mutable_profiles()) {
        if (matcher.filters() && !matcher.selected(dictString(*dict, p.sample_type().type_strindex()), service))
          continue;
        ++counts.profiles;
        for (auto& s : *p.mutable_samples()) counts.samples += editor.edit(s) ? 1 : 0;
      }
    }
  }
  return counts;
}

AttributesProcessor::AttributesProcessor(const CreateSettings& settings, const AttributesProcessorConfig& config,
                                         ConsumerPtr next)
    : actions_(config.actions), matcher_(config.include, config.exclude), next_(std::move(next)) {
  if (settings.telemetry)
    samples_changed_ = &settings.telemetry->counter("attributes_changed_samples_total",
                                                    "Samples whose attributes the actions changed");
}

Status AttributesProcessor::consume(Batch batch) {
  EditCounts c = applyToSamples(actions_, matcher_, batch.mutableRequest());
  if (samples_changed_ && c.samples > 0) samples_changed_->add(c.samples);
  return next_->consume(std::move(batch));
}

}  // namespace proflow::processors::attributes
