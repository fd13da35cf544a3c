#include "exporters/debug/summary.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <map>

#include "core/batch.h"
#include "core/dictionary_builder.h"
#include "core/profile_attributes.h"

namespace proflow::exporters::debug {
namespace {

std::string serviceOf(const otlp::ResourceProfiles& rp, const otlp::Dictionary& dict) {
  return findKeyValue(rp.resource().attributes(), dict, "service.name").value_or("unknown");
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
int64_t sampleTotal(const otlp::Sample& s) {
  if (s.values_size() == 0) return s.timestamps_unix_nano_size();
  int64_t total = 0;
  for (int64_t v : s.values()) total += v;
  return total;
}

// Appends the frames of one location: its functions (inlined ones first, as OTLP orders them), or
// "file+0xaddr" when it is not symbolized.
void appendFrames(const otlp::Dictionary& dict, int32_t li, std::vector<std::string>& out) {
  if (li <= 0 || li >= dict.location_table_size()) {
    out.emplace_back("?");
    return;
  }
  const auto& loc = dict.location_table(li);
  const size_t before = out.size();
  for (const auto& line : loc.lines()) {
    int32_t fi = line.function_index();
    if (fi <= 0 || fi >= dict.function_table_size()) continue;
    std::string_view name = dictString(dict, dict.function_table(fi).name_strindex());
    if (!name.empty()) out.emplace_back(name);
  }
  if (out.size() > before) return;
  char addr[32];
  std::snprintf(addr, sizeof addr, "0x%" PRIx64, loc.address());
  std::string_view file;
  if (loc.mapping_index() > 0 && loc.mapping_index() < dict.mapping_table_size())
    file = dictString(dict, dict.mapping_table(loc.mapping_index()).filename_strindex());
  out.push_back(file.empty() ? std::string(addr) : std::string(file) + "+" + addr);
}

void appendTopStacks(const otlp::Profile& p, const otlp::Dictionary& dict, size_t top, int64_t total,
                     std::vector<std::string>& lines) {
  std::map<int32_t, int64_t> by_stack;
  for (const auto& s : p.samples()) by_stack[s.stack_index()] += sampleTotal(s);
  std::vector<std::pair<int32_t, int64_t>> stacks(by_stack.begin(), by_stack.end());
  std::stable_sort(stacks.begin(), stacks.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (stacks.size() > top) stacks.resize(top);
  for (size_t i = 0; i < stacks.size(); ++i) {
    std::string frames;
    for (const auto& f : stackFrameNames(dict, stacks[i].first)) frames += (frames.empty() ? "" : " <- ") + f;
    char head[96];
    std::snprintf(head, sizeof head, "  #%zu %" PRId64 " (%.1f%%) ", i + 1, stacks[i].second,
                  total > 0 ? 100.0 * static_cast<double>(stacks[i].second) / static_cast<double>(total) : 0.0);
    lines.push_back(head + (frames.empty() ? std::string("<empty stack>") : frames));
  }
}

}  // namespace

std::vector<std::string> stackFrameNames(const otlp::Dictionary& dict, int32_t stack_index) {
  std::vector<std::string> out;
  if (stack_index <= 0 || stack_index >= dict.stack_table_size()) return out;
  for (int32_t li : dict.stack_table(stack_index).location_indices()) appendFrames(dict, li, out);
  return out;
}

std::string batchLine(const otlp::Request& request) {
  const BatchCounts c = countRequest(request);
  return "ProfilesBatch resources=" + std::to_string(c.resources) + " profiles=" + std::to_string(c.profiles) +
         " samples=" + std::to_string(c.samples);
}

std::vector<std::string> profileLines(const otlp::Request& request, size_t top_stacks) {
  std::vector<std::string> lines;
  const auto& dict = request.dictionary();
  for (const auto& rp : request.resource_profiles()) {
    const std::string service = serviceOf(rp, dict);
    for (const auto& sp : rp.scope_profiles())
      for (const auto& p : sp.profiles()) {
        int64_t total = 0;
        for (const auto& s : p.samples()) total += sampleTotal(s);
        lines.push_back("Profile service=" + service + " type=" +
                        std::string(dictString(dict, p.sample_type().type_strindex())) + "/" +
                        std::string(dictString(dict, p.sample_type().unit_strindex())) +
                        " samples=" + std::to_string(p.samples_size()) + " total=" + std::to_string(total) +
                        " time=" + formatTime(p.time_unix_nano()) + " duration=" + formatDuration(p.duration_nano()));
        if (top_stacks > 0) appendTopStacks(p, dict, top_stacks, total, lines);
      }
  }
  return lines;
}

}  // namespace proflow::exporters::debug
