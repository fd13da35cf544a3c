// Reading the OTLP view of what the receiver produced, for assertions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/model/batch.h"
#include "tests/support/dictionary_builder.h"

namespace proflow::receivers::datadog::testing {

inline std::string resourceAttr(const otlp::ResourceProfiles& rp, std::string_view key) {
  for (const auto& kv : rp.resource().attributes())
    if (kv.key() == key) return kv.value().string_value();
  return {};
}

// Function names of every stack of every profile of the request ("a;b;c", root first).
inline std::vector<std::string> functionNames(const otlp::Request& r) {
  std::vector<std::string> out;
  const auto& d = r.dictionary();
  for (const auto& f : d.function_table()) out.emplace_back(dictString(d, f.name_strindex()));
  return out;
}

// Sample attribute `key` of sample `s` as text ("" when absent).
inline std::string sampleAttr(const otlp::Request& r, const otlp::Sample& s, std::string_view key) {
  const auto& d = r.dictionary();
  for (int32_t i : s.attribute_indices()) {
    const auto& kv = d.attribute_table(i);
    if (dictString(d, kv.key_strindex()) != key) continue;
    return kv.value().has_int_value() ? std::to_string(kv.value().int_value()) : kv.value().string_value();
  }
  return {};
}

inline std::string hex(std::string_view bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

}  // namespace proflow::receivers::datadog::testing
