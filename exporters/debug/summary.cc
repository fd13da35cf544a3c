#include "exporters/debug/summary.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <map>

#include "core/flat/flat_attributes.h"

namespace proflow::exporters::debug {
namespace {

std::string serviceOf(const flat::Batch& b, const flat::Resource& r) {
  return flat::resourceAttribute(b, r, "service.name").value_or("unknown");
}

std::string formatTime(uint64_t unix_nano) {
  if (unix_nano == 0) return "unset";
  const std::time_t secs = static_cast<std::time_t>(unix_nano / 1'000'000'000ULL);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[80];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(unix_nano / 1'000'000ULL % 1000));
  return buf;
}

std::string formatDuration(uint64_t nanos) {
  char buf[40];
  if (nanos % 1'000'000'000ULL == 0) std::snprintf(buf, sizeof buf, "%" PRIu64 "s", static_cast<uint64_t>(nanos / 1'000'000'000ULL));
  else std::snprintf(buf, sizeof buf, "%.3fs", static_cast<double>(nanos) / 1e9);
  return buf;
}

// A sample's weight: the sum of its values, or one per timestamp when it has only timestamps.
int64_t sampleTotal(const flat::Batch& b, size_t row) {
  const flat::Range values = b.samples.values[row];
  if (values.size == 0) return b.samples.timestamps[row].size;
  int64_t total = 0;
  for (int64_t v : flat::Batch::slice(b.values, values)) total += v;
  return total;
}

// Appends the frames of one location: its functions (inlined ones first, as OTLP orders them), or
// "file+0xaddr" when it is not symbolized.
void appendFrames(const flat::Batch& b, int32_t li, std::vector<std::string>& out) {
  if (li <= 0 || static_cast<size_t>(li) >= b.locations.size()) {
    out.emplace_back("?");
    return;
  }
  const flat::Location& loc = b.locations[static_cast<size_t>(li)];
  const size_t before = out.size();
  for (const flat::Line& line : flat::Batch::slice(b.lines, loc.lines)) {
    const int32_t fi = line.function_index;
    if (fi <= 0 || static_cast<size_t>(fi) >= b.functions.size()) continue;
    std::string_view name = b.string(b.functions[static_cast<size_t>(fi)].name_strindex);
    if (!name.empty()) out.emplace_back(name);
  }
  if (out.size() > before) return;
  char addr[32];
  std::snprintf(addr, sizeof addr, "0x%" PRIx64, loc.address);
  std::string_view file;
  if (loc.mapping_index > 0 && static_cast<size_t>(loc.mapping_index) < b.mappings.size())
    file = b.string(b.mappings[static_cast<size_t>(loc.mapping_index)].filename_strindex);
  out.push_back(file.empty() ? std::string(addr) : std::string(file) + "+" + addr);
}

void appendTopStacks(const flat::Batch& b, const flat::Profile& p, size_t top, int64_t total,
                     std::vector<std::string>& lines) {
  std::map<int32_t, int64_t> by_stack;
  for (uint32_t row = p.samples.begin; row < p.samples.end(); ++row) by_stack[b.samples.stack_index[row]] += sampleTotal(b, row);
  std::vector<std::pair<int32_t, int64_t>> stacks(by_stack.begin(), by_stack.end());
  std::stable_sort(stacks.begin(), stacks.end(), [](const auto& x, const auto& y) { return x.second > y.second; });
  if (stacks.size() > top) stacks.resize(top);
  for (size_t i = 0; i < stacks.size(); ++i) {
    std::string frames;
    for (const auto& f : stackFrameNames(b, stacks[i].first)) frames += (frames.empty() ? "" : " <- ") + f;
    char head[96];
    std::snprintf(head, sizeof head, "  #%zu %" PRId64 " (%.1f%%) ", i + 1, stacks[i].second,
                  total > 0 ? 100.0 * static_cast<double>(stacks[i].second) / static_cast<double>(total) : 0.0);
    lines.push_back(head + (frames.empty() ? std::string("<empty stack>") : frames));
  }
}

}  // namespace

std::vector<std::string> stackFrameNames(const flat::Batch& b, int32_t stack_index) {
  std::vector<std::string> out;
  if (stack_index <= 0 || static_cast<size_t>(stack_index) >= b.stacks.size()) return out;
  for (int32_t li : b.indexList(b.stacks[static_cast<size_t>(stack_index)].locations)) appendFrames(b, li, out);
  return out;
}

std::string batchLine(const flat::Batch& b) {
  const flat::Counts c = b.counts();
  return "ProfilesBatch resources=" + std::to_string(c.resources) + " profiles=" + std::to_string(c.profiles) +
         " samples=" + std::to_string(c.samples);
}

std::vector<std::string> profileLines(const flat::Batch& b, size_t top_stacks) {
  std::vector<std::string> lines;
  for (const flat::Resource& r : b.resources) {
    const std::string service = serviceOf(b, r);
    b.forEachScope(r, [&](uint32_t scope) {
      const flat::Range profiles = b.scopes[scope].profiles;
      for (uint32_t i = profiles.begin; i < profiles.end(); ++i) {
        const flat::Profile& p = b.profiles[i];
        int64_t total = 0;
        for (uint32_t row = p.samples.begin; row < p.samples.end(); ++row) total += sampleTotal(b, row);
        lines.push_back("Profile service=" + service + " type=" + std::string(b.string(p.sample_type.type_strindex)) +
                        "/" + std::string(b.string(p.sample_type.unit_strindex)) +
                        " samples=" + std::to_string(p.samples.size) + " total=" + std::to_string(total) +
                        " time=" + formatTime(p.time_unix_nano) + " duration=" + formatDuration(p.duration_nano));
        if (top_stacks > 0) appendTopStacks(b, p, top_stacks, total, lines);
      }
    });
  }
  return lines;
}

}  // namespace proflow::exporters::debug
