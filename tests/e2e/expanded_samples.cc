#include "tests/e2e/expanded_samples.h"

#include <algorithm>
#include <cstdio>
#include <functional>

#include "core/util/hex.h"
#include "tests/support/dictionary_builder.h"

namespace proflow::testing {
namespace {

// The entry at `index`, or the table's zero value when the index is out of range (so a broken
// reference shows as a difference instead of crashing the test).
template <class T>
const T& entry(const google::protobuf::RepeatedPtrField<T>& table, int32_t index) {
  if (index < 0 || index >= table.size()) return T::default_instance();
  return table.Get(index);
}

void appendValue(std::string& out, const otlp::AnyValue& v, const otlp::Dictionary& dict);

std::string keyValues(const google::protobuf::RepeatedPtrField<otlp::KeyValue>& kvs, const otlp::Dictionary& dict) {
  std::vector<std::string> parts;
  for (const auto& kv : kvs) {
    std::string p(kv.key_strindex() != 0 ? dictString(dict, kv.key_strindex()) : std::string_view(kv.key()));
    p += '=';
    appendValue(p, kv.value(), dict);
    parts.push_back(std::move(p));
  }
  // Attributes form a map: their order carries no meaning.
  std::sort(parts.begin(), parts.end());
  std::string out = "{";
  for (const auto& p : parts) out += (out.size() > 1 ? ", " : "") + p;
  return out + "}";
}

void appendValue(std::string& out, const otlp::AnyValue& v, const otlp::Dictionary& dict) {
  using V = otlp::AnyValue;
  switch (v.value_case()) {
    case V::kStringValue:
      out += '"' + v.string_value() + '"';
      break;
    case V::kStringValueStrindex:  // the same string, held in the dictionary
      out += '"' + std::string(dictString(dict, v.string_value_strindex())) + '"';
      break;
    case V::kBoolValue:
      out += v.bool_value() ? "true" : "false";
      break;
    case V::kIntValue:
      out += std::to_string(v.int_value()) + "i";
      break;
    case V::kDoubleValue: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17gd", v.double_value());
      out += buf;
      break;
    }
    case V::kBytesValue:
      out += "0x" + hexEncode(v.bytes_value());
      break;
    case V::kArrayValue: {
      out += '[';
      for (int i = 0; i < v.array_value().values_size(); ++i) {
        if (i > 0) out += ", ";
        appendValue(out, v.array_value().values(i), dict);
      }
      out += ']';
      break;
    }
    case V::kKvlistValue:
      out += keyValues(v.kvlist_value().values(), dict);
      break;
    case V::VALUE_NOT_SET:
      out += "(empty)";
      break;
  }
}

std::string attributes(const google::protobuf::RepeatedField<int32_t>& indices, const otlp::Dictionary& dict) {
  std::vector<std::string> parts;
  for (int32_t i : indices) {
    const otlp::KeyValueAndUnit& a = entry(dict.attribute_table(), i);
    std::string p(dictString(dict, a.key_strindex()));
    p += '=';
    appendValue(p, a.value(), dict);
    if (a.unit_strindex() != 0) p += " [" + std::string(dictString(dict, a.unit_strindex())) + "]";
    parts.push_back(std::move(p));
  }
  std::sort(parts.begin(), parts.end());
  std::string out = "{";
  for (const auto& p : parts) out += (out.size() > 1 ? ", " : "") + p;
  return out + "}";
}

// Trace, span and profile ids: all zero bytes means "no id" as much as no bytes do (OTLP), and the
// Collector writes an all-zero id as an absent field.
std::string id(const std::string& bytes) {
  if (bytes.find_first_not_of('\0') == std::string::npos) return "none";
  return hexEncode(bytes);
}

std::string valueType(const otlp::ValueType& t, const otlp::Dictionary& dict) {
  return std::string(dictString(dict, t.type_strindex())) + "/" + std::string(dictString(dict, t.unit_strindex()));
}

std::string frame(const otlp::Location& loc, const otlp::Dictionary& dict) {
  char addr[24];
  std::snprintf(addr, sizeof addr, "%llx", static_cast<unsigned long long>(loc.address()));
  std::string out = std::string("@0x") + addr;
  if (loc.mapping_index() != 0) {
    const otlp::Mapping& m = entry(dict.mapping_table(), loc.mapping_index());
    char range[80];
    std::snprintf(range, sizeof range, "%llx-%llx+%llx", static_cast<unsigned long long>(m.memory_start()),
                  static_cast<unsigned long long>(m.memory_limit()), static_cast<unsigned long long>(m.file_offset()));
    out += " in " + std::string(dictString(dict, m.filename_strindex())) + "[" + range + "]" +
           attributes(m.attribute_indices(), dict);
  }
  for (const otlp::Line& line : loc.lines()) {
    const otlp::Function& f = entry(dict.function_table(), line.function_index());
    out += " " + std::string(dictString(dict, f.name_strindex()));
    if (f.system_name_strindex() != 0) out += "(" + std::string(dictString(dict, f.system_name_strindex())) + ")";
    out += " " + std::string(dictString(dict, f.filename_strindex())) + ":" + std::to_string(line.line()) + ":" +
           std::to_string(line.column()) + " start " + std::to_string(f.start_line());
  }
  if (loc.attribute_indices_size() > 0) out += " " + attributes(loc.attribute_indices(), dict);
  return out;
}

std::string profileHeader(const otlp::Profile& p, const otlp::Dictionary& dict) {
  std::string out = valueType(p.sample_type(), dict) + " period " + std::to_string(p.period()) + " " +
                    valueType(p.period_type(), dict) + " time " + std::to_string(p.time_unix_nano()) + "+" +
                    std::to_string(p.duration_nano()) + " id " + id(p.profile_id()) + " attrs " +
                    attributes(p.attribute_indices(), dict) + " dropped " +
                    std::to_string(p.dropped_attributes_count());
  if (!p.original_payload_format().empty() || !p.original_payload().empty())
    out += " payload " + p.original_payload_format() + " " + std::to_string(p.original_payload().size()) + "B #" +
           std::to_string(std::hash<std::string>{}(p.original_payload()));
  return out;
}

void expandInto(const otlp::Request& request, std::vector<std::string>* out) {
  const otlp::Dictionary& dict = request.dictionary();
  for (const auto& rp : request.resource_profiles()) {
    const std::string resource = "resource " + keyValues(rp.resource().attributes(), dict) + " dropped " +
                                 std::to_string(rp.resource().dropped_attributes_count()) + " schema " +
                                 rp.schema_url();
    for (const auto& sp : rp.scope_profiles()) {
      const std::string scope = " | scope " + sp.scope().name() + " " + sp.scope().version() + " " +
                                keyValues(sp.scope().attributes(), dict) + " dropped " +
                                std::to_string(sp.scope().dropped_attributes_count()) + " schema " + sp.schema_url();
      for (const auto& p : sp.profiles()) {
        const std::string profile = resource + scope + " | profile " + profileHeader(p, dict);
        out->push_back(profile + " | " + std::to_string(p.samples_size()) + " samples");
        for (const auto& s : p.samples()) {
          std::string line = profile + " | sample values";
          for (int64_t v : s.values()) line += " " + std::to_string(v);
          line += " at";
          for (uint64_t t : s.timestamps_unix_nano()) line += " " + std::to_string(t);
          line += " attrs " + attributes(s.attribute_indices(), dict);
          if (s.link_index() != 0) {
            const otlp::Link& l = entry(dict.link_table(), s.link_index());
            line += " link " + id(l.trace_id()) + "/" + id(l.span_id());
          }
          line += " stack";
          for (int32_t loc : entry(dict.stack_table(), s.stack_index()).location_indices())
            line += " ; " + frame(entry(dict.location_table(), loc), dict);
          out->push_back(std::move(line));
        }
      }
    }
  }
}

}  // namespace

std::vector<std::string> expandSamples(const otlp::Request& request) {
  std::vector<std::string> out;
  expandInto(request, &out);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> expandSamples(const std::vector<otlp::Request>& requests) {
  std::vector<std::string> out;
  for (const auto& r : requests) expandInto(r, &out);
  std::sort(out.begin(), out.end());
  return out;
}

std::string expansionDifference(const std::vector<std::string>& expected, const std::vector<std::string>& actual,
                                size_t max_lines) {
  std::vector<std::string> missing, extra;
  std::set_difference(expected.begin(), expected.end(), actual.begin(), actual.end(), std::back_inserter(missing));
  std::set_difference(actual.begin(), actual.end(), expected.begin(), expected.end(), std::back_inserter(extra));
  if (missing.empty() && extra.empty()) return "";
  std::string out = std::to_string(expected.size()) + " lines sent, " + std::to_string(actual.size()) +
                    " received; " + std::to_string(missing.size()) + " only sent, " + std::to_string(extra.size()) +
                    " only received\n";
  // Lines are long (a whole stack each): show them from a little before where the pair differs.
  for (size_t i = 0; i < std::max(missing.size(), extra.size()) && i < max_lines; ++i) {
    const std::string& a = i < missing.size() ? missing[i] : std::string();
    const std::string& b = i < extra.size() ? extra[i] : std::string();
    const size_t differ = std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin();
    const size_t from = differ > 200 ? differ - 200 : 0;
    auto excerpt = [from](const std::string& line) {
      return (from > 0 ? "..." : "") + line.substr(std::min(from, line.size()), 600) +
             (line.size() > from + 600 ? "..." : "");
    };
    if (i < missing.size()) out += "  sent:     " + excerpt(a) + "\n";
    if (i < extra.size()) out += "  received: " + excerpt(b) + "\n";
  }
  return out;
}

}  // namespace proflow::testing
