#include "tests/support/request_merger.h"

#include <algorithm>

#include "core/flat/flat_identity.h"

namespace proflow {

// Maps indexes of one source dictionary to the destination dictionary, lazily and memoized.
class RequestMerger::Remap {
 public:
  Remap(const otlp::Dictionary& src, DictionaryBuilder& dst)
      : src_(src),
        dst_(dst),
        strings_(src.string_table_size(), -1),
        attributes_(src.attribute_table_size(), -1),
        functions_(src.function_table_size(), -1),
        mappings_(src.mapping_table_size(), -1),
        locations_(src.location_table_size(), -1),
        stacks_(src.stack_table_size(), -1),
        links_(src.link_table_size(), -1) {}

  int32_t str(int32_t i) {
    if (i <= 0 || i >= static_cast<int32_t>(strings_.size())) return 0;
    auto& m = strings_[i];
    if (m < 0) m = dst_.string(src_.string_table(i));
    return m;
  }

  void value(otlp::AnyValue* v) {
    switch (v->value_case()) {
      case otlp::AnyValue::kStringValueStrindex:
        v->set_string_value_strindex(str(v->string_value_strindex()));
        break;
      case otlp::AnyValue::kArrayValue:
        for (auto& e : *v->mutable_array_value()->mutable_values()) value(&e);
        break;
      case otlp::AnyValue::kKvlistValue:
        for (auto& kv : *v->mutable_kvlist_value()->mutable_values()) keyValue(&kv);
        break;
      default:
        break;
    }
  }

  void keyValue(otlp::KeyValue* kv) {
    if (kv->key_strindex() != 0) kv->set_key_strindex(str(kv->key_strindex()));
    if (kv->has_value()) value(kv->mutable_value());
  }

  int32_t attribute(int32_t i) {
    if (i <= 0 || i >= static_cast<int32_t>(attributes_.size())) return 0;
    auto& m = attributes_[i];
    if (m < 0) {
      otlp::KeyValueAndUnit& kv = kv_;
      kv = src_.attribute_table(i);
      kv.set_key_strindex(str(kv.key_strindex()));
      kv.set_unit_strindex(str(kv.unit_strindex()));
      if (kv.has_value()) value(kv.mutable_value());
      m = dst_.attribute(kv);
    }
    return m;
  }

  template <class Repeated>
  void attributes(Repeated* indices) {
    for (auto& a : *indices) a = attribute(a);
  }

  int32_t function(int32_t i) {
    if (i <= 0 || i >= static_cast<int32_t>(functions_.size())) return 0;
    auto& m = functions_[i];
    if (m < 0) {
      otlp::Function& f = fn_;
      f = src_.function_table(i);
      f.set_name_strindex(str(f.name_strindex()));
      f.set_system_name_strindex(str(f.system_name_strindex()));
      f.set_filename_strindex(str(f.filename_strindex()));
      m = dst_.function(f);
    }
    return m;
  }

  int32_t mapping(int32_t i) {
    if (i <= 0 || i >= static_cast<int32_t>(mappings_.size())) return 0;
    auto& m = mappings_[i];
    if (m < 0) {
      otlp::Mapping& mp = mapping_;
      mp = src_.mapping_table(i);
      mp.set_filename_strindex(str(mp.filename_strindex()));
      attributes(mp.mutable_attribute_indices());
      m = dst_.mapping(mp);
    }
    return m;
  }

  int32_t location(int32_t i) {
    if (i <= 0 || i >= static_cast<int32_t>(locations_.size())) return 0;
    auto& m = locations_[i];
    if (m < 0) {
      otlp::Location& l = location_;
      l = src_.location_table(i);
      l.set_mapping_index(mapping(l.mapping_index()));
      for (auto& line : *l.mutable_lines()) line.set_function_index(function(line.function_index()));
      attributes(l.mutable_attribute_indices());
      m = dst_.location(l);
    }
    return m;
  }

  int32_t stack(int32_t i) {
    if (i <= 0 || i >= static_cast<int32_t>(stacks_.size())) return 0;
    auto& m = stacks_[i];
    if (m < 0) {
      const auto& src = src_.stack_table(i).location_indices();
      scratch_.assign(src.begin(), src.end());
      for (auto& l : scratch_) l = location(l);
      m = dst_.stack(scratch_);
    }
    return m;
  }

  int32_t link(int32_t i) {
    if (i <= 0 || i >= static_cast<int32_t>(links_.size())) return 0;
    auto& m = links_[i];
    if (m < 0) m = dst_.link(src_.link_table(i).trace_id(), src_.link_table(i).span_id());
    return m;
  }

  void valueType(otlp::ValueType* vt) {
    vt->set_type_strindex(str(vt->type_strindex()));
    vt->set_unit_strindex(str(vt->unit_strindex()));
  }

  void profile(otlp::Profile* p) {
    if (p->has_sample_type()) valueType(p->mutable_sample_type());
    if (p->has_period_type()) valueType(p->mutable_period_type());
    attributes(p->mutable_attribute_indices());
    for (auto& s : *p->mutable_samples()) {
      s.set_stack_index(stack(s.stack_index()));
      s.set_link_index(link(s.link_index()));
      attributes(s.mutable_attribute_indices());
    }
  }

 private:
  const otlp::Dictionary& src_;
  DictionaryBuilder& dst_;
  std::vector<int32_t> strings_, attributes_, functions_, mappings_, locations_, stacks_, links_;
  std::vector<int32_t> scratch_;
  // Reused between entries: assigning into a used message recycles its sub-objects, so remapping an
  // entry allocates nothing once warm (the builder copies the entry only when it is new).
  otlp::KeyValueAndUnit kv_;
  otlp::Function fn_;
  otlp::Mapping mapping_;
  otlp::Location location_;
};

std::string keyValuesIdentity(const google::protobuf::RepeatedPtrField<otlp::KeyValue>& kvs,
                              const otlp::Dictionary& dict) {
  std::vector<std::string> parts;
  parts.reserve(kvs.size());
  for (const auto& kv : kvs) {
    std::string p(kv.key_strindex() != 0 ? dictString(dict, kv.key_strindex()) : std::string_view(kv.key()));
    p.push_back('\0');
    appendValueKey(p, kv.value(), dict);
    parts.push_back(std::move(p));
  }
  return flat::joinAttributeIdentities(std::move(parts));
}

RequestMerger::RequestMerger(otlp::Request* dst) : dst_(dst), dict_(dst->mutable_dictionary()) {
  for (int r = 0; r < dst_->resource_profiles_size(); ++r)
    resource_by_key_.emplace(resourceKey(dst_->resource_profiles(r)), r);
}

std::string RequestMerger::resourceKey(const otlp::ResourceProfiles& rp) const {
  return rp.schema_url() + '\n' + keyValuesIdentity(rp.resource().attributes(), dict_.dictionary());
}

void RequestMerger::append(const otlp::Request& src) {
  std::vector<int> all(static_cast<size_t>(src.resource_profiles_size()));
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  appendResources(src, all);
}

void RequestMerger::appendResources(const otlp::Request& src, const std::vector<int>& resource_indices) {
  Remap remap(src.dictionary(), dict_);
  for (int index : resource_indices) {
    const auto& src_rp = src.resource_profiles(index);
    // Re-point reference-based resource attributes first, so identities compare in dst's terms.
    otlp::ResourceProfiles head;
    *head.mutable_resource() = src_rp.resource();
    head.set_schema_url(src_rp.schema_url());
    for (auto& kv : *head.mutable_resource()->mutable_attributes()) remap.keyValue(&kv);

    auto [rit, new_resource] = resource_by_key_.emplace(resourceKey(head), dst_->resource_profiles_size());
    if (new_resource) *dst_->add_resource_profiles() = std::move(head);
    auto* dst_rp = dst_->mutable_resource_profiles(rit->second);

    // Scopes are appended, never combined: a scope groups profiles that came from one source
    // (for example the sample types of one pprof file), which converters rely on to restore it.
    for (const auto& src_sp : src_rp.scope_profiles()) {
      auto* dst_sp = dst_rp->add_scope_profiles();
      *dst_sp->mutable_scope() = src_sp.scope();
      dst_sp->set_schema_url(src_sp.schema_url());
      for (auto& kv : *dst_sp->mutable_scope()->mutable_attributes()) remap.keyValue(&kv);

      for (const auto& src_profile : src_sp.profiles()) {
        auto* p = dst_sp->add_profiles();
        *p = src_profile;
        remap.profile(p);
      }
    }
  }
}

}  // namespace proflow
