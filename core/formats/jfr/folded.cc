#include "core/formats/jfr/folded.h"

#include <vector>

#include "core/dictionary_builder.h"
#include "core/formats/jfr/otlp_converter.h"

namespace proflow::jfr {
namespace {

std::string frameName(const otlp::Dictionary& d, const otlp::Line& line, bool with_lines) {
  std::string name;
  int32_t fi = line.function_index();
  if (fi > 0 && fi < d.function_table_size()) name = dictString(d, d.function_table(fi).name_strindex());
  if (with_lines && line.line() > 0) name += ":" + std::to_string(line.line());
  return name;
}

std::string foldStack(const otlp::Dictionary& d, int32_t stack_index, bool with_lines) {
  if (stack_index <= 0 || stack_index >= d.stack_table_size()) return "";
  std::vector<std::string> frames;  // leaf first
  for (int32_t li : d.stack_table(stack_index).location_indices()) {
    if (li <= 0 || li >= d.location_table_size()) continue;
    for (const auto& line : d.location_table(li).lines()) frames.push_back(frameName(d, line, with_lines));
  }
  std::string out;
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    if (!out.empty()) out.push_back(';');
    out += *it;
  }
  return out;
}

std::string threadName(const otlp::Dictionary& d, const otlp::Sample& s) {
  for (int32_t ai : s.attribute_indices()) {
    if (ai <= 0 || ai >= d.attribute_table_size()) continue;
    const auto& kv = d.attribute_table(ai);
    if (dictString(d, kv.key_strindex()) != "thread.name") continue;
    if (kv.value().has_string_value_strindex()) return std::string(dictString(d, kv.value().string_value_strindex()));
    return kv.value().string_value();
  }
  return "";
}

}  // namespace

std::map<std::string, int64_t> foldStacks(const otlp::Request& request, const FoldOptions& o) {
  std::map<std::string, int64_t> result;
  const otlp::Dictionary& d = request.dictionary();
  for (const auto& rp : request.resource_profiles())
    for (const auto& sp : rp.scope_profiles())
      for (const auto& p : sp.profiles()) {
        if (dictString(d, p.sample_type().type_strindex()) != o.sample_type) continue;
        if (!o.period_type.empty() && dictString(d, p.period_type().type_strindex()) != o.period_type) continue;
        for (const auto& s : p.samples()) {
          int64_t v = 0;
          if (o.count_events) {
            v = std::max(s.values_size(), s.timestamps_unix_nano_size());
          } else {
            for (int64_t x : s.values()) v += x;
            if (s.values_size() == 0) v = s.timestamps_unix_nano_size();
          }
          std::string stack = foldStack(d, s.stack_index(), o.with_lines);
          if (o.with_thread) stack = threadName(d, s) + (stack.empty() ? "" : ";") + stack;
          result[stack] += v;
        }
      }
  return result;
}

std::string formatFolded(const std::map<std::string, int64_t>& stacks) {
  std::string out;
  for (const auto& [stack, v] : stacks) {
    out += stack;
    out.push_back(' ');
    out += std::to_string(v);
    out.push_back('\n');
  }
  return out;
}

bool jfrToFolded(std::span<const uint8_t> jfr, const FoldOptions& options, std::string* out, std::string* error) {
  otlp::Request request;
  ConvertResult r = convertToOtlp(jfr, {}, &request);
  *out = formatFolded(foldStacks(request, options));
  if (!r.ok) *error = r.error.toString();
  return r.ok;
}

}  // namespace proflow::jfr
