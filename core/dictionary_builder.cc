#include "core/dictionary_builder.h"

#include <cstring>

namespace proflow {
namespace {

template <class T>
void put(std::string& key, T v) {
  char buf[sizeof(T)];
  std::memcpy(buf, &v, sizeof(T));
  key.append(buf, sizeof(T));
}

void putString(std::string& key, std::string_view s) {
  put<uint32_t>(key, static_cast<uint32_t>(s.size()));
  key.append(s);
}

template <class Repeated>
void putInts(std::string& key, const Repeated& r) {
  put<uint32_t>(key, static_cast<uint32_t>(r.size()));
  for (auto v : r) put(key, v);
}

std::string functionKey(const otlp::Function& f) {
  std::string k;
  put(k, f.name_strindex());
  put(k, f.system_name_strindex());
  put(k, f.filename_strindex());
  put(k, f.start_line());
  return k;
}

std::string mappingKey(const otlp::Mapping& m) {
  std::string k;
  put(k, m.memory_start());
  put(k, m.memory_limit());
  put(k, m.file_offset());
  put(k, m.filename_strindex());
  putInts(k, m.attribute_indices());
  return k;
}

std::string locationKey(const otlp::Location& l) {
  std::string k;
  put(k, l.mapping_index());
  put(k, l.address());
  put<uint32_t>(k, static_cast<uint32_t>(l.lines_size()));
  for (const auto& line : l.lines()) {
    put(k, line.function_index());
    put(k, line.line());
    put(k, line.column());
  }
  putInts(k, l.attribute_indices());
  return k;
}

std::string stackKey(std::span<const int32_t> locs) {
  return std::string(reinterpret_cast<const char*>(locs.data()), locs.size() * sizeof(int32_t));
}

std::string linkKey(std::string_view trace_id, std::string_view span_id) {
  std::string k;
  putString(k, trace_id);
  putString(k, span_id);
  return k;
}

}  // namespace

std::string_view dictString(const otlp::Dictionary& dict, int32_t index) {
  if (index < 0 || index >= dict.string_table_size()) return {};
  return dict.string_table(index);
}

void appendValueKey(std::string& out, const otlp::AnyValue& v, const otlp::Dictionary& dict) {
  using V = otlp::AnyValue;
  switch (v.value_case()) {
    case V::kStringValue:
      out.push_back('s');
      putString(out, v.string_value());
      break;
    case V::kStringValueStrindex:  // same identity as the inline string it stands for
      out.push_back('s');
      putString(out, dictString(dict, v.string_value_strindex()));
      break;
    case V::kBoolValue:
      out.push_back('b');
      put(out, v.bool_value());
      break;
    case V::kIntValue:
      out.push_back('i');
      put(out, v.int_value());
      break;
    case V::kDoubleValue:
      out.push_back('d');
      put(out, v.double_value());
      break;
    case V::kBytesValue:
      out.push_back('y');
      putString(out, v.bytes_value());
      break;
    case V::kArrayValue:
      out.push_back('a');
      put<uint32_t>(out, static_cast<uint32_t>(v.array_value().values_size()));
      for (const auto& e : v.array_value().values()) appendValueKey(out, e, dict);
      break;
    case V::kKvlistValue:
      out.push_back('k');
      put<uint32_t>(out, static_cast<uint32_t>(v.kvlist_value().values_size()));
      for (const auto& kv : v.kvlist_value().values()) {
        putString(out, kv.key_strindex() != 0 ? dictString(dict, kv.key_strindex()) : std::string_view(kv.key()));
        appendValueKey(out, kv.value(), dict);
      }
      break;
    case V::VALUE_NOT_SET:
      out.push_back('0');
      break;
  }
}

DictionaryBuilder::DictionaryBuilder(otlp::Dictionary* dict) : dict_(dict) {
  ensureZeroEntries();
  indexExisting();
}

void DictionaryBuilder::ensureZeroEntries() {
  auto& d = *dict_;
  if (d.string_table_size() == 0) d.add_string_table();
  if (d.mapping_table_size() == 0) d.add_mapping_table();
  if (d.location_table_size() == 0) d.add_location_table();
  if (d.function_table_size() == 0) d.add_function_table();
  if (d.link_table_size() == 0) {
    auto* l = d.add_link_table();
    l->set_trace_id(std::string(16, '\0'));
    l->set_span_id(std::string(8, '\0'));
  }
  if (d.attribute_table_size() == 0) d.add_attribute_table();
  if (d.stack_table_size() == 0) d.add_stack_table();
}

void DictionaryBuilder::indexExisting() {
  const auto& d = *dict_;
  // emplace keeps the first index of duplicates that a producer may have sent.
  for (int i = 0; i < d.string_table_size(); ++i) strings_.emplace(d.string_table(i), i);
  for (int i = 1; i < d.function_table_size(); ++i) functions_.emplace(functionKey(d.function_table(i)), i);
  for (int i = 1; i < d.mapping_table_size(); ++i) mappings_.emplace(mappingKey(d.mapping_table(i)), i);
  for (int i = 1; i < d.location_table_size(); ++i) locations_.emplace(locationKey(d.location_table(i)), i);
  for (int i = 0; i < d.stack_table_size(); ++i) {
    const auto& s = d.stack_table(i).location_indices();
    stacks_.emplace(stackKey({s.data(), static_cast<size_t>(s.size())}), i);
  }
  for (int i = 0; i < d.link_table_size(); ++i)
    links_.emplace(linkKey(d.link_table(i).trace_id(), d.link_table(i).span_id()), i);
  for (int i = 1; i < d.attribute_table_size(); ++i) attributes_.emplace(attributeKey(d.attribute_table(i)), i);
}

int32_t DictionaryBuilder::string(std::string_view s) {
  if (auto it = strings_.find(s); it != strings_.end()) return it->second;
  auto idx = static_cast<int32_t>(dict_->string_table_size());
  std::string* stored = dict_->add_string_table();
  stored->assign(s);
  strings_.emplace(*stored, idx);
  return idx;
}

int32_t DictionaryBuilder::findString(std::string_view s) const {
  auto it = strings_.find(s);
  return it == strings_.end() ? -1 : it->second;
}

int32_t DictionaryBuilder::function(const otlp::Function& f) {
  auto [it, inserted] = functions_.emplace(functionKey(f), dict_->function_table_size());
  if (inserted) *dict_->add_function_table() = f;
  return it->second;
}

int32_t DictionaryBuilder::function(std::string_view name, std::string_view system_name, std::string_view filename,
                                    int64_t start_line) {
  otlp::Function f;
  f.set_name_strindex(string(name));
  f.set_system_name_strindex(string(system_name));
  f.set_filename_strindex(string(filename));
  f.set_start_line(start_line);
  return function(f);
}

int32_t DictionaryBuilder::mapping(const otlp::Mapping& m) {
  auto [it, inserted] = mappings_.emplace(mappingKey(m), dict_->mapping_table_size());
  if (inserted) *dict_->add_mapping_table() = m;
  return it->second;
}

int32_t DictionaryBuilder::location(const otlp::Location& l) {
  auto [it, inserted] = locations_.emplace(locationKey(l), dict_->location_table_size());
  if (inserted) *dict_->add_location_table() = l;
  return it->second;
}

int32_t DictionaryBuilder::stack(std::span<const int32_t> location_indices) {
  auto [it, inserted] = stacks_.emplace(stackKey(location_indices), dict_->stack_table_size());
  if (inserted) {
    auto* s = dict_->add_stack_table();
    s->mutable_location_indices()->Add(location_indices.begin(), location_indices.end());
  }
  return it->second;
}

int32_t DictionaryBuilder::link(std::string_view trace_id, std::string_view span_id) {
  auto [it, inserted] = links_.emplace(linkKey(trace_id, span_id), dict_->link_table_size());
  if (inserted) {
    auto* l = dict_->add_link_table();
    l->set_trace_id(std::string(trace_id));
    l->set_span_id(std::string(span_id));
  }
  return it->second;
}

std::string DictionaryBuilder::attributeKey(const otlp::KeyValueAndUnit& kv) const {
  std::string k;
  putString(k, dictString(*dict_, kv.key_strindex()));
  putString(k, dictString(*dict_, kv.unit_strindex()));
  appendValueKey(k, kv.value(), *dict_);
  return k;
}

int32_t DictionaryBuilder::attribute(const otlp::KeyValueAndUnit& kv) {
  auto [it, inserted] = attributes_.emplace(attributeKey(kv), dict_->attribute_table_size());
  if (inserted) *dict_->add_attribute_table() = kv;
  return it->second;
}

int32_t DictionaryBuilder::attribute(std::string_view key, const otlp::AnyValue& value, std::string_view unit) {
  otlp::KeyValueAndUnit kv;
  kv.set_key_strindex(string(key));
  if (!unit.empty()) kv.set_unit_strindex(string(unit));
  *kv.mutable_value() = value;
  return attribute(kv);
}

int32_t DictionaryBuilder::stringAttribute(std::string_view key, std::string_view value) {
  otlp::AnyValue v;
  v.set_string_value(std::string(value));
  return attribute(key, v);
}

int32_t DictionaryBuilder::intAttribute(std::string_view key, int64_t value, std::string_view unit) {
  otlp::AnyValue v;
  v.set_int_value(value);
  return attribute(key, v, unit);
}

int32_t DictionaryBuilder::boolAttribute(std::string_view key, bool value) {
  otlp::AnyValue v;
  v.set_bool_value(value);
  return attribute(key, v);
}

int32_t DictionaryBuilder::doubleAttribute(std::string_view key, double value, std::string_view unit) {
  otlp::AnyValue v;
  v.set_double_value(value);
  return attribute(key, v, unit);
}

}  // namespace proflow
