// Lossless compaction: totals per sample type are exact, the dictionary stays consistent and loses its
// duplicates and orphans, samples with one identity become one.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/processors/compress/compress_test_util.h"
#include "tests/support/profile_builder.h"

namespace proflow::processors::compress {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing::makeRequest;
using testing::ProfileSpec;

// Two profiles (cpu, alloc) over the same stacks, with repeated samples and a zero one.
otlp::Request sharedRequest() {
  ProfileSpec cpu, alloc;
  cpu.sample_type = "cpu";
  alloc.sample_type = "alloc_space";
  alloc.sample_unit = "bytes";
  for (int i = 0; i < 30; ++i) {
    cpu.samples.push_back({{i % 3 == 0 ? "parse" : "hash", "handle", "main"}, 10 + i});
    alloc.samples.push_back({{i % 2 == 0 ? "parse" : "alloc", "handle", "main"}, i % 5 == 0 ? 0 : 100 * i});
  }
  return makeRequest("svc", {cpu, alloc});
}

TEST(CompressLossless, KeepsEveryTotalAndMergesRepeatedSamples) {
  otlp::Request in = sharedRequest();
  auto want = totals(in);
  Harness h(CompressConfig{});
  otlp::Request out = h.run(in);
  EXPECT_EQ(totals(out), want);
  EXPECT_THAT(testing::dictionaryProblems(out), IsEmpty());
  const auto& profiles = out.resource_profiles(0).scope_profiles(0).profiles();
  ASSERT_EQ(profiles.size(), 2);
  EXPECT_EQ(profiles[0].samples_size(), 2);  // parse, hash
  EXPECT_EQ(profiles[1].samples_size(), 2);  // parse, alloc (zeros gone)
  for (const auto& p : profiles)
    for (const auto& s : p.samples()) {
      EXPECT_NE(s.values(0), 0);
      EXPECT_THAT(testing::stackFrames(out.dictionary(), s.stack_index()), ElementsAre(::testing::_, "handle", "main"));
    }
  EXPECT_EQ(h.metric("proflow_processor_compress_merged_samples_total"), 60 - 4 - 6);
  EXPECT_EQ(h.metric("proflow_processor_compress_zero_samples_total"), 6);
  EXPECT_GT(h.metric("proflow_processor_compress_bytes_before_total"),
            h.metric("proflow_processor_compress_bytes_after_total"));
  EXPECT_EQ(h.metric("proflow_processor_compress_bytes_after_total"), static_cast<double>(out.ByteSizeLong()));
}

TEST(CompressLossless, DedupesDuplicateEntriesAndDropsOrphans) {
  otlp::Request in = makeRequest("svc", {ProfileSpec{.samples = {{{"leaf", "main"}, 5}, {{"leaf", "main"}, 7}}}});
  auto* d = in.mutable_dictionary();
  // A producer that did not intern: a second copy of the stack, its locations and functions.
  const auto& stack = d->stack_table(in.resource_profiles(0).scope_profiles(0).profiles(0).samples(1).stack_index());
  otlp::Stack copy;
  for (int32_t li : stack.location_indices()) {
    otlp::Location loc = d->location_table(li);
    *d->add_function_table() = d->function_table(loc.lines(0).function_index());
    loc.mutable_lines(0)->set_function_index(d->function_table_size() - 1);
    *d->add_location_table() = loc;
    copy.add_location_indices(d->location_table_size() - 1);
  }
  *d->add_stack_table() = copy;
  in.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->mutable_samples(1)->set_stack_index(
      d->stack_table_size() - 1);
  d->add_string_table("orphan string");
  d->add_function_table()->set_name_strindex(d->string_table_size() - 1);

  Harness h(CompressConfig{});
  otlp::Request out = h.run(in);
  EXPECT_THAT(testing::dictionaryProblems(out), IsEmpty());
  const auto& od = out.dictionary();
  EXPECT_EQ(od.function_table_size(), 3);  // zero entry, leaf, main
  EXPECT_EQ(od.location_table_size(), 3);
  EXPECT_EQ(od.stack_table_size(), 2);
  for (const auto& s : od.string_table()) EXPECT_NE(s, "orphan string");
  const auto& p = out.resource_profiles(0).scope_profiles(0).profiles(0);
  ASSERT_EQ(p.samples_size(), 1) << "duplicate stacks only merge once they are deduped";
  EXPECT_EQ(p.samples(0).values(0), 12);
}

TEST(CompressLossless, AttributeSetAndLinkSeparateSamplesAndOrderDoesNot) {
  otlp::Request in = makeRequest("svc", {ProfileSpec{.samples = {{{"f"}, 1}, {{"f"}, 2}, {{"f"}, 4}, {{"f"}, 8}}}});
  DictionaryBuilder d(in.mutable_dictionary());
  int32_t a = d.stringAttribute("thread.name", "worker");
  int32_t b = d.intAttribute("thread.id", 7);
  auto* p = in.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0);
  p->mutable_samples(0)->add_attribute_indices(a);
  p->mutable_samples(0)->add_attribute_indices(b);
  p->mutable_samples(1)->add_attribute_indices(b);  // same set, other order
  p->mutable_samples(1)->add_attribute_indices(a);
  p->mutable_samples(2)->set_link_index(d.link(std::string(16, '\x01'), std::string(8, '\x02')));
  Harness h(CompressConfig{});
  otlp::Request out = h.run(in);
  const auto& op = out.resource_profiles(0).scope_profiles(0).profiles(0);
  ASSERT_EQ(op.samples_size(), 3);
  EXPECT_EQ(op.samples(0).values(0), 3);
  EXPECT_EQ(op.samples(0).attribute_indices_size(), 2);
  EXPECT_NE(op.samples(1).link_index(), 0);
  EXPECT_EQ(op.samples(1).values(0), 4);
  EXPECT_EQ(op.samples(2).values(0), 8);
  EXPECT_THAT(testing::dictionaryProblems(out), IsEmpty());
}

TEST(CompressLossless, TimestampedSamplesAppendAndDropZeroEvents) {
  otlp::Request in = makeRequest("svc", {ProfileSpec{.samples = {{{"f"}, 1}, {{"f"}, 1}, {{"g"}, 1}, {{"g"}, 1}}}});
  auto* p = in.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0);
  // f: values per timestamp, one of them zero; g: bare timestamps.
  p->mutable_samples(0)->clear_values();
  p->mutable_samples(0)->add_values(3);
  p->mutable_samples(0)->add_values(0);
  p->mutable_samples(0)->add_timestamps_unix_nano(100);
  p->mutable_samples(0)->add_timestamps_unix_nano(101);
  p->mutable_samples(1)->add_timestamps_unix_nano(102);  // value 1 already set
  for (int i : {2, 3}) {
    p->mutable_samples(i)->clear_values();
    p->mutable_samples(i)->add_timestamps_unix_nano(200 + static_cast<uint64_t>(i));
  }
  auto want = totals(in);
  Harness h(CompressConfig{});
  otlp::Request out = h.run(in);
  EXPECT_EQ(totals(out), want);
  const auto& op = out.resource_profiles(0).scope_profiles(0).profiles(0);
  ASSERT_EQ(op.samples_size(), 2);
  EXPECT_THAT(op.samples(0).values(), ElementsAre(3, 1));
  EXPECT_THAT(op.samples(0).timestamps_unix_nano(), ElementsAre(100u, 102u));
  EXPECT_THAT(op.samples(1).values(), IsEmpty());
  EXPECT_THAT(op.samples(1).timestamps_unix_nano(), ElementsAre(202u, 203u));
}

}  // namespace
}  // namespace proflow::processors::compress
