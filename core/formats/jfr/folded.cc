#include "core/formats/jfr/folded.h"

#include <vector>

#include "core/formats/jfr/flat_converter.h"

namespace proflow::jfr {
namespace {

std::string foldStack(const flat::Batch& b, int32_t stack_index, bool with_lines) {
  if (stack_index <= 0 || static_cast<size_t>(stack_index) >= b.stacks.size()) return "";
  std::vector<std::string> frames;  // leaf first
  for (int32_t li : b.indexList(b.stacks[static_cast<size_t>(stack_index)].locations)) {
    if (li <= 0 || static_cast<size_t>(li) >= b.locations.size()) continue;
    for (const flat::Line& line : flat::Batch::slice(b.lines, b.locations[static_cast<size_t>(li)].lines)) {
      std::string name;
      const int32_t fi = line.function_index;
      if (fi > 0 && static_cast<size_t>(fi) < b.functions.size()) name = b.string(b.functions[static_cast<size_t>(fi)].name_strindex);
      if (with_lines && line.line > 0) name += ":" + std::to_string(line.line);
      frames.push_back(std::move(name));
    }
  }
  std::string out;
  for (auto it = frames.rbegin(); it != frames.rend(); ++it) {
    if (!out.empty()) out.push_back(';');
    out += *it;
  }
  return out;
}

std::string threadName(const flat::Batch& b, flat::Range attributes) {
  for (int32_t ai : b.indexList(attributes)) {
    if (ai <= 0 || static_cast<size_t>(ai) >= b.attributes.size()) continue;
    const flat::Attribute& a = b.attributes[static_cast<size_t>(ai)];
    if (b.string(a.key_strindex) != "thread.name") continue;
    if (a.value.kind == flat::ValueKind::kStrindex) return std::string(b.string(a.value.strindex()));
    return a.value.kind == flat::ValueKind::kString ? std::string(b.view(a.value.bytes)) : std::string();
  }
  return "";
}

}  // namespace

std::map<std::string, int64_t> foldStacks(const flat::Batch& b, const FoldOptions& o) {
  std::map<std::string, int64_t> result;
  for (const flat::Resource& r : b.resources)
    b.forEachScope(r, [&](uint32_t scope) {
      const flat::Range profiles = b.scopes[scope].profiles;
      for (uint32_t pi = profiles.begin; pi < profiles.end(); ++pi) {
        const flat::Profile& p = b.profiles[pi];
        if (b.string(p.sample_type.type_strindex) != o.sample_type) continue;
        if (!o.period_type.empty() && b.string(p.period_type.type_strindex) != o.period_type) continue;
        for (uint32_t row = p.samples.begin; row < p.samples.end(); ++row) {
          const flat::Range values = b.samples.values[row];
          const int64_t stamps = b.samples.timestamps[row].size;
          int64_t v = 0;
          if (o.count_events) {
            v = std::max<int64_t>(values.size, stamps);
          } else {
            for (int64_t x : flat::Batch::slice(b.values, values)) v += x;
            if (values.size == 0) v = stamps;
          }
          std::string stack = foldStack(b, b.samples.stack_index[row], o.with_lines);
          if (o.with_thread) stack = threadName(b, b.samples.attributes[row]) + (stack.empty() ? "" : ";") + stack;
          result[stack] += v;
        }
      }
    });
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
  flat::Batch batch;
  ConvertResult r = convertToFlat(jfr, {}, &batch);
  *out = formatFolded(foldStacks(batch, options));
  if (!r.ok) *error = r.error.toString();
  return r.ok;
}

}  // namespace proflow::jfr
