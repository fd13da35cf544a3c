#include "tests/processors/profilemetrics/go_cpu_fixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "core/formats/pprof/pprof_codec.h"
#include "core/formats/pprof/pprof_to_flat.h"
#include "tests/support/temp_dir.h"

namespace proflow::processors::profilemetrics::testing {

std::string goCpuPprof() {
  return ::proflow::testing::readFile(std::string(PROFLOW_SOURCE_DIR) + "/tests/core/flat/testdata/go_cpu.pb.gz");
}

flat::Batch goCpuBatch(const std::string& service) {
  flat::Batch b;
  pprof::PprofToOtlpOptions options;
  options.resource_attributes = {{"service.name", service}};
  Status s = pprof::pprofBytesToFlat(goCpuPprof(), options, &b);
  EXPECT_TRUE(s.isOk()) << s.message();
  return b;
}

std::vector<Expected> expectedGoCpu() {
  pprof::Profile p;
  Status s = pprof::decodeProfile(goCpuPprof(), &p);
  EXPECT_TRUE(s.isOk()) << s.message();
  auto str = [&](int64_t i) { return p.string_table(static_cast<int>(i)); };
  std::map<uint64_t, std::string> function_names;
  for (const auto& f : p.function()) function_names[f.id()] = !str(f.name()).empty() ? str(f.name()) : str(f.system_name());
  std::map<uint64_t, const perftools::profiles::Location*> locations;
  for (const auto& l : p.location()) locations[l.id()] = &l;

  std::vector<Expected> out(static_cast<size_t>(p.sample_type_size()));
  for (int t = 0; t < p.sample_type_size(); ++t) {
    out[t].type = str(p.sample_type(t).type());
    out[t].unit = str(p.sample_type(t).unit());
  }
  for (const auto& sample : p.sample()) {
    // Frames innermost first: a location's lines run from the inlined callee to its caller.
    std::vector<std::string> frames;
    for (uint64_t id : sample.location_id())
      for (const auto& line : locations.at(id)->line()) frames.push_back(function_names.at(line.function_id()));
    std::set<std::string> distinct(frames.begin(), frames.end());
    std::string trace, span;
    for (const auto& label : sample.label()) {
      if (str(label.key()) == "trace_id") trace = str(label.str());
      if (str(label.key()) == "span_id") span = str(label.str());
    }
    for (int t = 0; t < p.sample_type_size(); ++t) {
      Expected& e = out[t];
      const int64_t v = sample.value(t);
      e.total += v;
      ++e.samples;
      if (!frames.empty()) e.self[frames.front()] += v;
      for (const auto& f : distinct) e.inclusive[f] += v;
      if (!trace.empty() && !span.empty())
        e.linked.push_back({trace, span, v, frames.empty() ? "" : frames.front(), distinct});
    }
  }
  return out;
}

std::vector<std::pair<std::string, int64_t>> topN(const std::map<std::string, int64_t>& values, size_t n) {
  std::vector<std::pair<std::string, int64_t>> v;
  for (const auto& [name, x] : values)
    if (x > 0) v.emplace_back(name, x);
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (v.size() > n) v.resize(n);
  return v;
}

}  // namespace proflow::processors::profilemetrics::testing
