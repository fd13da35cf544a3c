#include "processors/resource/resource_processor.h"

#include "core/dictionary_builder.h"

namespace proflow::processors::resource {
namespace {

using attributes::Attr;
using attributes::AttrList;

AttrList readAttributes(const google::protobuf::RepeatedPtrField<otlp::KeyValue>& kvs, const otlp::Dictionary& dict) {
  AttrList out;
  out.reserve(kvs.size());
  for (int i = 0; i < kvs.size(); ++i) {
    const auto& kv = kvs[i];
    Attr a;
    // key_strindex 0 is "": an inline key is meant then (OTLP rule).
    a.key = kv.key_strindex() != 0 ? std::string(dictString(dict, kv.key_strindex())) : kv.key();
    a.value = kv.value();
    if (a.value.value_case() == otlp::AnyValue::kStringValueStrindex)
      a.value.set_string_value(std::string(dictString(dict, kv.value().string_value_strindex())));
    a.origin = i;
    out.push_back(std::move(a));
  }
  return out;
}

// Untouched entries are copied as they came (references stay valid: the string table is not
// edited); changed and new ones are written inline.
void writeAttributes(const AttrList& attrs, google::protobuf::RepeatedPtrField<otlp::KeyValue>* kvs) {
  google::protobuf::RepeatedPtrField<otlp::KeyValue> out;
  for (const auto& a : attrs) {
    if (!a.changed && a.origin >= 0) {
      *out.Add() = (*kvs)[a.origin];
      continue;
    }
    auto* kv = out.Add();
    kv->set_key(a.key);
    *kv->mutable_value() = a.value;
  }
  kvs->Swap(&out);
}

}  // namespace

size_t applyToResources(const attributes::ActionSet& actions, otlp::Request& request) {
  size_t changed = 0;
  for (auto& rp : *request.mutable_resource_profiles()) {
    auto* kvs = rp.mutable_resource()->mutable_attributes();
    AttrList attrs = readAttributes(*kvs, request.dictionary());
    if (!actions.apply(attrs)) continue;
    writeAttributes(attrs, kvs);
    ++changed;
  }
  return changed;
}

ResourceProcessor::ResourceProcessor(const CreateSettings& settings, const ResourceProcessorConfig& config,
                                     ConsumerPtr next)
    : actions_(config.attributes), next_(std::move(next)) {
  if (settings.telemetry)
    changed_ = &settings.telemetry->counter("resource_changed_resources_total",
                                            "Resources whose attributes the actions changed");
}

Status ResourceProcessor::consume(Batch batch) {
  size_t n = applyToResources(actions_, batch.mutableRequest());
  if (changed_ && n > 0) changed_->add(n);
  return next_->consume(std::move(batch));
}

}  // namespace proflow::processors::resource
