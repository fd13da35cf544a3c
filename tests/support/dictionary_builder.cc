#include "tests/support/dictionary_builder.h"

#include <algorithm>
#include <cstring>
#include <functional>

#include "core/flat/flat_identity.h"

namespace proflow {
namespace {

using flat::putString;  // the identities' length-prefixed strings

// A scalar's bytes, appended (identity keys compare bytes, never read them back).
template <class T>
void put(std::string& key, T v) {
  key.append(reinterpret_cast<const char*>(&v), sizeof(T));
}

template <class Repeated>
void putInts(std::string& key, const Repeated& r) {
  put<uint32_t>(key, static_cast<uint32_t>(r.size()));
  for (auto v : r) put(key, v);
}

// Hash mixing for field-wise keys; the final step spreads entropy into the low bits the table uses.
class Hasher {
 public:
  void add(uint64_t v) {
    h_ = (h_ ^ v) * 0x9E3779B97F4A7C15ull;
    h_ ^= h_ >> 32;
  }
  void addBytes(std::string_view s) {
    add(s.size());
    add(std::hash<std::string_view>{}(s));
  }
  template <class Repeated>
  void addInts(const Repeated& r) {
    add(static_cast<uint64_t>(r.size()));
    for (auto v : r) add(static_cast<uint64_t>(v));
  }
  uint64_t done() const {
    uint64_t x = h_;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    return x ^ (x >> 33);
  }

 private:
  uint64_t h_ = 0x243F6A8885A308D3ull;
};

uint64_t bytesHash(const void* data, size_t n) {
  return std::hash<std::string_view>{}(std::string_view(static_cast<const char*>(data), n));
}

uint64_t functionHash(int32_t name, int32_t system_name, int32_t filename, int64_t start_line) {
  Hasher h;
  h.add(static_cast<uint32_t>(name));
  h.add(static_cast<uint32_t>(system_name));
  h.add(static_cast<uint32_t>(filename));
  h.add(static_cast<uint64_t>(start_line));
  return h.done();
}

bool sameFunction(const otlp::Function& f, int32_t name, int32_t system_name, int32_t filename,
                  int64_t start_line) {
  return f.name_strindex() == name && f.system_name_strindex() == system_name &&
         f.filename_strindex() == filename && f.start_line() == start_line;
}

template <class A, class B>
bool sameInts(const A& a, const B& b) {
  return static_cast<size_t>(a.size()) == static_cast<size_t>(b.size()) && std::equal(a.begin(), a.end(), b.begin());
}

uint64_t mappingHash(const otlp::Mapping& m) {
  Hasher h;
  h.add(m.memory_start());
  h.add(m.memory_limit());
  h.add(m.file_offset());
  h.add(static_cast<uint32_t>(m.filename_strindex()));
  h.addInts(m.attribute_indices());
  return h.done();
}

bool sameMapping(const otlp::Mapping& a, const otlp::Mapping& b) {
  return a.memory_start() == b.memory_start() && a.memory_limit() == b.memory_limit() &&
         a.file_offset() == b.file_offset() && a.filename_strindex() == b.filename_strindex() &&
         sameInts(a.attribute_indices(), b.attribute_indices());
}

uint64_t locationHash(const otlp::Location& l) {
  Hasher h;
  h.add(static_cast<uint32_t>(l.mapping_index()));
  h.add(l.address());
  h.add(static_cast<uint64_t>(l.lines_size()));
  for (const auto& line : l.lines()) {
    h.add(static_cast<uint32_t>(line.function_index()));
    h.add(static_cast<uint64_t>(line.line()));
    h.add(static_cast<uint64_t>(line.column()));
  }
  h.addInts(l.attribute_indices());
  return h.done();
}

bool sameLocation(const otlp::Location& a, const otlp::Location& b) {
  if (a.mapping_index() != b.mapping_index() || a.address() != b.address() || a.lines_size() != b.lines_size())
    return false;
  for (int i = 0; i < a.lines_size(); ++i) {
    const auto &x = a.lines(i), &y = b.lines(i);
    if (x.function_index() != y.function_index() || x.line() != y.line() || x.column() != y.column()) return false;
  }
  return sameInts(a.attribute_indices(), b.attribute_indices());
}

uint64_t linkHash(std::string_view trace_id, std::string_view span_id) {
  Hasher h;
  h.addBytes(trace_id);
  h.addBytes(span_id);
  return h.done();
}

}  // namespace

std::string_view dictString(const otlp::Dictionary& dict, int32_t index) {
  if (index < 0 || index >= dict.string_table_size()) return {};
  return dict.string_table(index);
}

void appendValueKey(std::string& out, const otlp::AnyValue& v, const otlp::Dictionary& dict) {
  flat::appendMessageIdentity(out, v, [&dict](int32_t index) { return dictString(dict, index); });
}

DictionaryBuilder::DictionaryBuilder(otlp::Dictionary* dict) : dict_(dict) {
  ensureZeroEntries();
  indexExisting();
}

void DictionaryBuilder::reserve(const Expected& e) {
  auto& d = *dict_;
  auto grow = [](IndexSet& set, auto& table, size_t more) {
    const size_t total = static_cast<size_t>(table.size()) + more;
    set.reserve(total);
    table.Reserve(static_cast<int>(std::min<size_t>(total, INT32_MAX)));
  };
  grow(strings_, *d.mutable_string_table(), e.strings);
  grow(functions_, *d.mutable_function_table(), e.functions);
  grow(mappings_, *d.mutable_mapping_table(), e.mappings);
  grow(locations_, *d.mutable_location_table(), e.locations);
  grow(stacks_, *d.mutable_stack_table(), e.stacks);
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
  // Interning each existing entry keeps the first index of duplicates that a producer may have sent.
  auto keep = [](int i) { return [i] { return i; }; };
  for (int i = 0; i < d.string_table_size(); ++i) {
    std::string_view s = d.string_table(i);
    strings_.intern(std::hash<std::string_view>{}(s), [&](int32_t j) { return d.string_table(j) == s; }, keep(i));
  }
  for (int i = 1; i < d.function_table_size(); ++i) {
    const auto& f = d.function_table(i);
    functions_.intern(
        functionHash(f.name_strindex(), f.system_name_strindex(), f.filename_strindex(), f.start_line()),
        [&](int32_t j) {
          return sameFunction(d.function_table(j), f.name_strindex(), f.system_name_strindex(),
                              f.filename_strindex(), f.start_line());
        },
        keep(i));
  }
  for (int i = 1; i < d.mapping_table_size(); ++i) {
    const auto& m = d.mapping_table(i);
    mappings_.intern(mappingHash(m), [&](int32_t j) { return sameMapping(d.mapping_table(j), m); }, keep(i));
  }
  for (int i = 1; i < d.location_table_size(); ++i) {
    const auto& l = d.location_table(i);
    locations_.intern(locationHash(l), [&](int32_t j) { return sameLocation(d.location_table(j), l); }, keep(i));
  }
  for (int i = 0; i < d.stack_table_size(); ++i) {
    const auto& s = d.stack_table(i).location_indices();
    stacks_.intern(bytesHash(s.data(), s.size() * sizeof(int32_t)),
                   [&](int32_t j) { return sameInts(d.stack_table(j).location_indices(), s); }, keep(i));
  }
  for (int i = 0; i < d.link_table_size(); ++i) {
    const auto& l = d.link_table(i);
    links_.intern(linkHash(l.trace_id(), l.span_id()),
                  [&](int32_t j) {
                    return d.link_table(j).trace_id() == l.trace_id() && d.link_table(j).span_id() == l.span_id();
                  },
                  keep(i));
  }
  for (int i = 1; i < d.attribute_table_size(); ++i) {
    attributeKey(d.attribute_table(i), key_scratch_);
    attributes_.intern(
        std::hash<std::string_view>{}(key_scratch_),
        [&](int32_t j) {
          attributeKey(d.attribute_table(j), cmp_scratch_);
          return cmp_scratch_ == key_scratch_;
        },
        keep(i));
  }
}

int32_t DictionaryBuilder::string(std::string_view s) {
  auto& table = *dict_->mutable_string_table();
  return strings_.intern(
      std::hash<std::string_view>{}(s), [&](int32_t i) { return table.Get(i) == s; },
      [&] {
        table.Add()->assign(s);
        return static_cast<int32_t>(table.size() - 1);
      });
}

int32_t DictionaryBuilder::findString(std::string_view s) const {
  const auto& table = dict_->string_table();
  return strings_.find(std::hash<std::string_view>{}(s), [&](int32_t i) { return table.Get(i) == s; });
}

int32_t DictionaryBuilder::function(const otlp::Function& f) {
  auto& table = *dict_->mutable_function_table();
  return functions_.intern(
      functionHash(f.name_strindex(), f.system_name_strindex(), f.filename_strindex(), f.start_line()),
      [&](int32_t i) {
        return sameFunction(table.Get(i), f.name_strindex(), f.system_name_strindex(), f.filename_strindex(),
                            f.start_line());
      },
      [&] {
        *table.Add() = f;
        return static_cast<int32_t>(table.size() - 1);
      });
}

int32_t DictionaryBuilder::function(std::string_view name, std::string_view system_name, std::string_view filename,
                                    int64_t start_line) {
  const int32_t n = string(name), s = string(system_name), f = string(filename);
  auto& table = *dict_->mutable_function_table();
  return functions_.intern(
      functionHash(n, s, f, start_line), [&](int32_t i) { return sameFunction(table.Get(i), n, s, f, start_line); },
      [&] {
        auto* fn = table.Add();
        fn->set_name_strindex(n);
        fn->set_system_name_strindex(s);
        fn->set_filename_strindex(f);
        fn->set_start_line(start_line);
        return static_cast<int32_t>(table.size() - 1);
      });
}

int32_t DictionaryBuilder::mapping(const otlp::Mapping& m) {
  auto& table = *dict_->mutable_mapping_table();
  return mappings_.intern(mappingHash(m), [&](int32_t i) { return sameMapping(table.Get(i), m); }, [&] {
    *table.Add() = m;
    return static_cast<int32_t>(table.size() - 1);
  });
}

int32_t DictionaryBuilder::location(const otlp::Location& l) {
  auto& table = *dict_->mutable_location_table();
  return locations_.intern(locationHash(l), [&](int32_t i) { return sameLocation(table.Get(i), l); }, [&] {
    *table.Add() = l;
    return static_cast<int32_t>(table.size() - 1);
  });
}

int32_t DictionaryBuilder::stack(std::span<const int32_t> location_indices) {
  auto& table = *dict_->mutable_stack_table();
  return stacks_.intern(
      bytesHash(location_indices.data(), location_indices.size_bytes()),
      [&](int32_t i) { return sameInts(table.Get(i).location_indices(), location_indices); },
      [&] {
        table.Add()->mutable_location_indices()->Add(location_indices.begin(), location_indices.end());
        return static_cast<int32_t>(table.size() - 1);
      });
}

int32_t DictionaryBuilder::link(std::string_view trace_id, std::string_view span_id) {
  auto& table = *dict_->mutable_link_table();
  return links_.intern(
      linkHash(trace_id, span_id),
      [&](int32_t i) { return table.Get(i).trace_id() == trace_id && table.Get(i).span_id() == span_id; },
      [&] {
        auto* l = table.Add();
        l->set_trace_id(trace_id.data(), trace_id.size());
        l->set_span_id(span_id.data(), span_id.size());
        return static_cast<int32_t>(table.size() - 1);
      });
}

void DictionaryBuilder::attributeKey(const otlp::KeyValueAndUnit& kv, std::string& out) const {
  out.clear();
  putString(out, dictString(*dict_, kv.key_strindex()));
  putString(out, dictString(*dict_, kv.unit_strindex()));
  appendValueKey(out, kv.value(), *dict_);
}

template <class SetValue>
int32_t DictionaryBuilder::internAttribute(int32_t key, int32_t unit, const SetValue& set_value) {
  auto& table = *dict_->mutable_attribute_table();
  return attributes_.intern(
      std::hash<std::string_view>{}(key_scratch_),
      [&](int32_t i) {
        attributeKey(table.Get(i), cmp_scratch_);
        return cmp_scratch_ == key_scratch_;
      },
      [&] {
        auto* kv = table.Add();
        kv->set_key_strindex(key);
        kv->set_unit_strindex(unit);
        set_value(kv);
        return static_cast<int32_t>(table.size() - 1);
      });
}

int32_t DictionaryBuilder::attribute(const otlp::KeyValueAndUnit& kv) {
  attributeKey(kv, key_scratch_);
  return internAttribute(0, 0, [&](otlp::KeyValueAndUnit* out) { *out = kv; });
}

int32_t DictionaryBuilder::attribute(std::string_view key, const otlp::AnyValue& value, std::string_view unit) {
  otlp::KeyValueAndUnit kv;
  kv.set_key_strindex(string(key));
  if (!unit.empty()) kv.set_unit_strindex(string(unit));
  *kv.mutable_value() = value;
  return attribute(kv);
}

// The scalar helpers below write the same identity attribute(kv) would compute for the equivalent
// message, without building the message unless the entry is new.
namespace {
void scalarKeyHead(std::string& out, std::string_view key, std::string_view unit, char type) {
  out.clear();
  putString(out, key);
  putString(out, unit);
  out.push_back(type);
}
}  // namespace

int32_t DictionaryBuilder::stringAttribute(std::string_view key, std::string_view value) {
  const int32_t k = string(key);
  scalarKeyHead(key_scratch_, key, dictString(*dict_, 0), 's');
  putString(key_scratch_, value);
  return internAttribute(k, 0, [&](otlp::KeyValueAndUnit* kv) { kv->mutable_value()->set_string_value(value.data(), value.size()); });
}

int32_t DictionaryBuilder::intAttribute(std::string_view key, int64_t value, std::string_view unit) {
  const int32_t k = string(key), u = unit.empty() ? 0 : string(unit);
  scalarKeyHead(key_scratch_, key, dictString(*dict_, u), 'i');
  put(key_scratch_, value);
  return internAttribute(k, u, [&](otlp::KeyValueAndUnit* kv) { kv->mutable_value()->set_int_value(value); });
}

int32_t DictionaryBuilder::boolAttribute(std::string_view key, bool value) {
  const int32_t k = string(key);
  scalarKeyHead(key_scratch_, key, dictString(*dict_, 0), 'b');
  put(key_scratch_, value);
  return internAttribute(k, 0, [&](otlp::KeyValueAndUnit* kv) { kv->mutable_value()->set_bool_value(value); });
}

int32_t DictionaryBuilder::doubleAttribute(std::string_view key, double value, std::string_view unit) {
  const int32_t k = string(key), u = unit.empty() ? 0 : string(unit);
  scalarKeyHead(key_scratch_, key, dictString(*dict_, u), 'd');
  put(key_scratch_, value);
  return internAttribute(k, u, [&](otlp::KeyValueAndUnit* kv) { kv->mutable_value()->set_double_value(value); });
}

}  // namespace proflow
