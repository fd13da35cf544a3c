// OTTL conditions of the filter processor: the Collector's shapes (`profiles: {resource, profile}`,
// `profile_conditions`), proflow's sample conditions with the frame view on a real Go CPU profile
// (totals checked against the pprof itself), error modes, and the older keys still working beside.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "tests/support/flat_request.h"
#include "core/formats/pprof/pprof_codec.h"
#include "core/formats/pprof/pprof_to_flat.h"
#include "tests/core/ottl/ottl_test_util.h"
#include "tests/processors/filter/filter_test_util.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"

namespace proflow::processors::filter {
namespace {

using ::testing::HasSubstr;

std::string goCpuPprof() {
  return ::proflow::testing::readFile(std::string(PROFLOW_SOURCE_DIR) + "/tests/core/flat/testdata/go_cpu.pb.gz");
}

otlp::Request goCpuRequest() {
  flat::Batch b;
  Status s = pprof::pprofBytesToFlat(goCpuPprof(), {}, &b);
  EXPECT_TRUE(s.isOk()) << s.message();
  return ottl::testing::toProto(b);
}

// Per sample type: the total of the samples `keep` accepts, computed from the pprof itself (frames
// of every location, inlined lines included).
std::map<std::string, int64_t> pprofTotals(const std::function<bool(const std::vector<std::string>&)>& keep) {
  pprof::Profile p;
  EXPECT_TRUE(pprof::decodeProfile(goCpuPprof(), &p).isOk());
  std::map<uint64_t, std::string> names;
  for (const auto& f : p.function()) names[f.id()] = p.string_table(static_cast<int>(f.name()));
  std::map<uint64_t, std::vector<std::string>> location_frames;
  for (const auto& l : p.location())
    for (const auto& line : l.line()) location_frames[l.id()].push_back(names[line.function_id()]);
  std::map<std::string, int64_t> out;
  for (const auto& s : p.sample()) {
    std::vector<std::string> frames;
    for (uint64_t id : s.location_id())
      for (const auto& f : location_frames[id]) frames.push_back(f);
    if (!keep(frames)) continue;
    for (int t = 0; t < p.sample_type_size(); ++t)
      out[p.string_table(static_cast<int>(p.sample_type(t).type()))] += s.value(t);
  }
  return out;
}

std::map<std::string, int64_t> requestTotals(const otlp::Request& r) {
  std::map<std::string, int64_t> out;
  for (const auto& rp : r.resource_profiles())
    for (const auto& sp : rp.scope_profiles())
      for (const auto& p : sp.profiles()) {
        auto& total = out[r.dictionary().string_table(p.sample_type().type_strindex())];
        for (const auto& s : p.samples())
          for (int64_t v : s.values()) total += v;
      }
  return out;
}

bool hasFrame(const std::vector<std::string>& frames, const std::function<bool(const std::string&)>& pred) {
  return std::any_of(frames.begin(), frames.end(), pred);
}

TEST(FilterOttl, DropsGcWorkerStacksFromAGoCpuProfile) {
  Harness h(R"~(
profiles:
  sample:
    - AnyFrame(function == "runtime.gcBgMarkWorker")
)~");
  otlp::Request out = h.run(goCpuRequest());
  const auto expected = pprofTotals([](const auto& frames) {
    return !hasFrame(frames, [](const std::string& f) { return f == "runtime.gcBgMarkWorker"; });
  });
  const auto all = pprofTotals([](const auto&) { return true; });
  EXPECT_EQ(requestTotals(out), expected);
  EXPECT_LT(expected.at("samples"), all.at("samples"));  // something was dropped
  EXPECT_GT(expected.at("samples"), 0);
  EXPECT_GT(h.metric("proflow_processor_dropped_samples_total"), 0);
  EXPECT_THAT(::proflow::testing::dictionaryProblems(out), ::testing::IsEmpty());
}

TEST(FilterOttl, KeepsOnlySamplesWithAMainFrame) {
  Harness h(R"~(
profiles:
  sample:
    - not AnyFrame(IsMatch(function, "^main\\."))
)~");
  otlp::Request out = h.run(goCpuRequest());
  const auto expected = pprofTotals([](const auto& frames) {
    return hasFrame(frames, [](const std::string& f) { return f.rfind("main.", 0) == 0; });
  });
  EXPECT_EQ(requestTotals(out), expected);
  EXPECT_GT(expected.at("cpu"), 0);
  EXPECT_LT(expected.at("cpu"), pprofTotals([](const auto&) { return true; }).at("cpu"));
}

// Source: opentelemetry-collector-contrib processor/filterprocessor/testdata/config_profiles.yaml
// (the processor's own profiles config, its body under `filter/profiles:` unchanged).
TEST(FilterOttl, CollectorProfilesTestdataConfig) {
  Harness h(R"~(
profiles:
  profile:
    - 'attributes["test"] == "pass"'
)~");
  otlp::Request req = ottl::testing::smallRequest();
  *req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->add_profiles() =
      req.resource_profiles(0).scope_profiles(0).profiles(0);
  auto* dict = req.mutable_dictionary();
  dict->add_string_table("test");
  auto* attr = dict->add_attribute_table();
  attr->set_key_strindex(dict->string_table_size() - 1);
  attr->mutable_value()->set_string_value("pass");
  req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(1)->add_attribute_indices(
      dict->attribute_table_size() - 1);
  otlp::Request out = h.run(req);
  ASSERT_EQ(out.resource_profiles(0).scope_profiles(0).profiles_size(), 1);
  EXPECT_EQ(out.resource_profiles(0).scope_profiles(0).profiles(0).attribute_indices_size(), 0);
  EXPECT_EQ(h.metric("proflow_processor_dropped_profiles_total"), 1);
}

// Source: opentelemetry-collector-contrib processor/filterprocessor/config.go, the flat
// (context-inferred) form documented on Config.Unmarshal, for profiles.
TEST(FilterOttl, CollectorFlatProfileConditions) {
  Harness h(R"~(
error_mode: ignore
profile_conditions:
  - resource.attributes["service.name"] == "canary"
  - sample.attributes["thread"] == "t1"
)~");
  otlp::Request out = h.run(ottl::testing::smallRequest());
  const auto& samples = out.resource_profiles(0).scope_profiles(0).profiles(0).samples();
  ASSERT_EQ(samples.size(), 2);  // the sample of thread t1 went
  EXPECT_EQ(samples[0].values(0), 20);
  Harness canary(R"~(
profile_conditions:
  - context: resource
    conditions: ['attributes["service.name"] == "api"']
)~");
  EXPECT_EQ(canary.run(ottl::testing::smallRequest()).resource_profiles_size(), 0);
}

TEST(FilterOttl, ErrorModes) {
  const std::string conditions = "profiles:\n  sample:\n    - Len(attributes[\"missing\"]) > 1\n    - values[0] == 20\n";
  Harness propagate(conditions);
  EXPECT_EQ(propagate.processor->consume(::proflow::testing::batchOf(ottl::testing::smallRequest())).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(propagate.sink->batches.empty());
  Harness ignore("error_mode: ignore\n" + conditions);
  otlp::Request out = ignore.run(ottl::testing::smallRequest());
  EXPECT_EQ(out.resource_profiles(0).scope_profiles(0).profiles(0).samples_size(), 2);  // values[0] == 20 still applies
  EXPECT_EQ(ignore.metric("proflow_processor_filter_condition_errors_total"), 3);
}

TEST(FilterOttl, OlderKeysWorkBeside) {
  Harness h(R"~(
drop_samples:
  - {key: thread, value: t1}
profiles:
  sample:
    - values[0] == 30
)~");
  otlp::Request out = h.run(ottl::testing::smallRequest());
  const auto& samples = out.resource_profiles(0).scope_profiles(0).profiles(0).samples();
  ASSERT_EQ(samples.size(), 1);
  EXPECT_EQ(samples[0].values(0), 20);
  EXPECT_EQ(h.metric("proflow_processor_dropped_samples_total"), 2);
}

TEST(FilterOttl, ConfigErrorsHaveLocations) {
  const std::string e = decode("profiles:\n  sample:\n    - 'AnyFrame(fn == \"x\")'\n  profile:\n    - 'sample.depth > 1'\n",
                               nullptr);
  EXPECT_THAT(e, HasSubstr("t.yaml:3:7: processors.filter.profiles.sample[0]: column 10"));
  EXPECT_THAT(e, HasSubstr("t.yaml:5:7: processors.filter.profiles.profile[0]: column 1"));
  EXPECT_THAT(e, HasSubstr("sample level"));
  EXPECT_THAT(decode("profile_conditions: ['true']\nprofiles: {resource: ['true']}\n", nullptr), HasSubstr("not both"));
  EXPECT_THAT(decode("error_mode: maybe\n", nullptr), HasSubstr("error_mode must be"));
}

}  // namespace
}  // namespace proflow::processors::filter
