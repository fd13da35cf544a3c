// Profile and sample rules of the filter processor, on batches whose profiles share one dictionary.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/dictionary_builder.h"
#include "tests/support/flat_request.h"
#include "tests/support/request_merger.h"
#include "tests/processors/filter/filter_test_util.h"
#include "tests/support/profile_builder.h"

namespace proflow::processors::filter {
namespace {

using ::testing::IsEmpty;
using testing::makeProfile;
using testing::makeRequest;

// Two resources (api, batch-jobs) merged into one request sharing stacks and functions.
otlp::Request twoServices() {
  otlp::Request a = makeRequest("api", {makeProfile(4, 0), makeProfile(4, 1)});
  otlp::Request b = makeRequest("batch-jobs", {makeProfile(4, 2)});
  otlp::Request out;
  RequestMerger m(&out);
  m.append(a);
  m.append(b);
  return out;
}

uint64_t profiles(const otlp::Request& r) { return countRequest(r).profiles; }

TEST(FilterProfiles, DropsByResourceAttributeExactValue) {
  Harness h("drop_profiles:\n  - key: service.name\n    value: batch-jobs\n");
  otlp::Request out = h.run(twoServices());
  ASSERT_EQ(out.resource_profiles_size(), 1);
  EXPECT_EQ(testing::serviceName(out, 0), "api");
  EXPECT_EQ(profiles(out), 2u);
  EXPECT_THAT(testing::dictionaryProblems(out), IsEmpty());
  // The kept profiles still resolve their (shared) stacks.
  for (const auto& p : out.resource_profiles(0).scope_profiles(0).profiles())
    for (const auto& s : p.samples())
      EXPECT_THAT(testing::stackFrames(out.dictionary(), s.stack_index()),
                  ::testing::ElementsAre(::testing::_, "handle_request", "main"));
  EXPECT_EQ(h.metric("proflow_processor_dropped_profiles_total"), 1);
  EXPECT_EQ(h.metric("proflow_processor_dropped_samples_total"), 4);
}

TEST(FilterProfiles, RegexMustMatchTheWholeValue) {
  Harness partial("drop_profiles:\n  - key: service.name\n    regex: batch\n");
  EXPECT_EQ(profiles(partial.run(twoServices())), 3u);
  Harness full("drop_profiles:\n  - key: service.name\n    regex: batch.*\n");
  EXPECT_EQ(profiles(full.run(twoServices())), 2u);
}

otlp::Request withProfileAttribute() {
  otlp::Request r = makeRequest("api", {makeProfile(2, 0), makeProfile(2, 1)});
  DictionaryBuilder d(r.mutable_dictionary());
  r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(1)->add_attribute_indices(
      d.stringAttribute("profile.kind", "debug"));
  r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_scope()->add_attributes()->set_key("team");
  r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_scope()->mutable_attributes(0)
      ->mutable_value()->set_string_value("perf");
  return r;
}

TEST(FilterProfiles, WhereRestrictsTheLevel) {
  Harness profile_level("drop_profiles:\n  - key: profile.kind\n    value: debug\n    in: profile\n");
  EXPECT_EQ(profiles(profile_level.run(withProfileAttribute())), 1u);
  Harness resource_level("drop_profiles:\n  - key: profile.kind\n    value: debug\n    in: resource\n");
  EXPECT_EQ(profiles(resource_level.run(withProfileAttribute())), 2u);
  Harness scope_level("drop_profiles:\n  - key: team\n    in: scope\n");  // key presence
  EXPECT_EQ(scope_level.sink->batches.size(), 0u);
  EXPECT_EQ(profiles(scope_level.run(withProfileAttribute())), 0u);
  EXPECT_EQ(scope_level.sink->batches.size(), 0u) << "an emptied batch is not sent";
}

TEST(FilterSamples, DropsSamplesByAttribute) {
  otlp::Request r = makeRequest("api", {makeProfile(6, 0), makeProfile(6, 1)});
  DictionaryBuilder d(r.mutable_dictionary());
  int32_t gc = d.stringAttribute("thread.name", "GC Thread#1");
  int32_t worker = d.stringAttribute("thread.name", "worker-3");
  for (auto& p : *r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles())
    for (int i = 0; i < p.samples_size(); ++i) p.mutable_samples(i)->add_attribute_indices(i % 3 == 0 ? gc : worker);
  Harness h("drop_samples:\n  - key: thread.name\n    regex: 'GC Thread#\\d+'\n");
  otlp::Request out = h.run(r);
  EXPECT_EQ(countRequest(out).samples, 8u);
  for (const auto& p : out.resource_profiles(0).scope_profiles(0).profiles())
    for (const auto& s : p.samples()) {
      const auto& kv = out.dictionary().attribute_table(s.attribute_indices(0));
      EXPECT_EQ(kv.value().string_value(), "worker-3");
    }
  EXPECT_THAT(testing::dictionaryProblems(out), IsEmpty());
  for (const auto& kv : out.dictionary().attribute_table()) EXPECT_NE(kv.value().string_value(), "GC Thread#1");
  EXPECT_EQ(h.metric("proflow_processor_dropped_samples_total"), 4);
}

}  // namespace
}  // namespace proflow::processors::filter
