// pprof -> flat::Batch means what pprof -> otlp::Request means: for every committed pprof fixture and
// option set, flat::toRequest(pprofBytesToFlat(x)) equals pprofBytesToOtlp(x), compared with
// MessageDifferencer field by field, dictionary order included (no re-interning needed).
#include <gtest/gtest.h>
#include <google/protobuf/util/message_differencer.h>

#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/flat/flat_convert.h"
#include "core/flat/flat_encode.h"
#include "core/formats/pprof/flat_to_pprof.h"
#include "core/formats/pprof/otlp_to_pprof.h"
#include "core/formats/pprof/pprof_ids.h"
#include "core/formats/pprof/pprof_to_flat.h"
#include "core/formats/pprof/pprof_to_otlp.h"
#include "tests/core/formats/pprof/conversion_helpers.h"
#include "tests/core/formats/pprof/test_profiles.h"
#include "tests/core/flat/test_requests.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"

namespace proflow::pprof {
namespace {

using google::protobuf::util::MessageDifferencer;

// Every pprof fixture committed under tests/, plus the generated ones of this folder's tests.
std::vector<std::pair<std::string, std::string>> fixtures() {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string dir = std::string(PROFLOW_SOURCE_DIR) + "/tests/";
  for (const char* file : {"core/flat/testdata/go_cpu.pb.gz", "core/flat/testdata/go_heap.pb.gz",
                           "receivers/pyroscope/testdata/ingest_wall.pb.gz",
                           "receivers/pyroscope/testdata/ingest_heap.pb.gz"})
    out.emplace_back(file, ::proflow::testing::readFile(dir + file));
  out.emplace_back("rich", testdata::richProfile().SerializeAsString());
  // Strings OTLP cannot carry as they are (invalid UTF-8 in names, labels and a raw build id) and a
  // mapping no location refers to.
  Profile odd = testdata::richProfile();
  odd.set_string_table(odd.function(0).name(), std::string("bad\xff\xfename"));
  odd.set_string_table(odd.mapping(0).build_id(), std::string("\x01\x02\xff\x80", 4));
  testdata::addLabel(&odd, odd.mutable_sample(0), "\xc3(key", "value\xe2\x28\xa1");
  auto* spare = odd.add_mapping();
  spare->set_id(99);
  spare->set_memory_start(0x9000);
  spare->set_filename(testdata::addString(&odd, "/lib/spare.so"));
  out.emplace_back("odd strings", odd.SerializeAsString());
  out.emplace_back("small", testdata::smallProfile().SerializeAsString());
  return out;
}

std::vector<std::pair<std::string, PprofToOtlpOptions>> optionSets() {
  std::vector<std::pair<std::string, PprofToOtlpOptions>> out;
  out.emplace_back("defaults", PprofToOtlpOptions{});
  PprofToOtlpOptions payload;
  payload.keep_original_payload = true;
  payload.resource_attributes = {{"service.name", "svc"}, {"host.name", "h"}};
  payload.scope_version = "1.2";
  out.emplace_back("payload+resource", payload);
  PprofToOtlpOptions no_links;
  no_links.trace_links = false;
  out.emplace_back("no links", no_links);
  return out;
}

std::string differences(const otlp::Request& want, const otlp::Request& got) {
  std::string diff;
  MessageDifferencer d;
  d.ReportDifferencesToString(&diff);
  return d.Compare(want, got) ? std::string() : diff;
}

TEST(PprofToFlat, EqualsPprofToOtlpOnEveryFixture) {
  for (const auto& [name, data] : fixtures()) {
    for (const auto& [option_name, options] : optionSets()) {
      SCOPED_TRACE(name + " / " + option_name);
      otlp::Request want;
      ASSERT_TRUE(pprofBytesToOtlp(data, options, &want).isOk());
      flat::Batch batch;
      auto st = pprofBytesToFlat(data, options, &batch);
      ASSERT_TRUE(st.isOk()) << st.toString();
      otlp::Request got;
      ASSERT_TRUE(flat::toRequest(batch, &got).isOk());
      EXPECT_EQ(differences(want, got), "");
      // Canonical input, canonical output: the same bytes as protobuf's serializer.
      EXPECT_EQ(flat::encode(batch), want.SerializeAsString());
    }
  }
}

TEST(PprofToFlat, OddStringsFixtureReachesSanitizingAndUnreferencedMappings) {
  for (const auto& [name, data] : fixtures()) {
    if (name != "odd strings") continue;
    flat::Batch batch;
    ASSERT_TRUE(pprofBytesToFlat(data, {}, &batch).isOk());
    EXPECT_NE(batch.arena.find("bad\xef\xbf\xbd"), std::string::npos);  // U+FFFD
    EXPECT_NE(batch.arena.find("0102ff80"), std::string::npos);               // raw build id, in hex
    bool unreferenced = false;
    for (const auto& kv : batch.key_values) unreferenced |= batch.view(kv.key) == attr::kUnreferencedMappings;
    EXPECT_TRUE(unreferenced);
    return;
  }
  FAIL() << "fixture missing";
}

TEST(PprofToFlat, AppendsToAnExistingBatchAsToAnExistingRequest) {
  const auto all = fixtures();
  otlp::Request want;
  flat::Batch batch;
  for (size_t i = 0; i < all.size(); ++i) {
    PprofToOtlpOptions options;
    options.resource_index = i % 2 == 0 ? -1 : 0;  // alternately a new resource and the first one
    ASSERT_TRUE(pprofBytesToOtlp(all[i].second, options, &want).isOk()) << all[i].first;
    ASSERT_TRUE(pprofBytesToFlat(all[i].second, options, &batch).isOk()) << all[i].first;
  }
  otlp::Request got;
  ASSERT_TRUE(flat::toRequest(batch, &got).isOk());
  EXPECT_EQ(differences(want, got), "");
}

TEST(PprofToFlat, RefusesWhatPprofToOtlpRefusesAndLeavesTheBatchUnchanged) {
  flat::Batch batch;
  ASSERT_TRUE(pprofBytesToFlat(testdata::smallProfile().SerializeAsString(), {}, &batch).isOk());
  const std::string before = flat::encode(batch);

  Profile dangling = testdata::smallProfile();
  dangling.mutable_sample(0)->add_location_id(999);
  otlp::Request req;
  auto want = pprofBytesToOtlp(dangling.SerializeAsString(), {}, &req);
  auto got = pprofBytesToFlat(dangling.SerializeAsString(), {}, &batch);
  EXPECT_EQ(got.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(got.toString(), want.toString());

  PprofToOtlpOptions small_limit;
  small_limit.max_otlp_samples = 3;  // 2 samples x 2 sample types
  got = pprofBytesToFlat(testdata::smallProfile().SerializeAsString(), small_limit, &batch);
  EXPECT_EQ(got.code(), StatusCode::kPayloadTooLarge);
  EXPECT_NE(got.toString().find("above the limit of 3"), std::string::npos) << got.toString();

  PprofToOtlpOptions bad_resource;
  bad_resource.resource_index = 5;
  got = pprofBytesToFlat(testdata::smallProfile().SerializeAsString(), bad_resource, &batch);
  EXPECT_EQ(got.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(got.toString().find("resource_index 5"), std::string::npos) << got.toString();

  EXPECT_EQ(flat::encode(batch), before);
}

// The scrape path converts a decoded Profile message (after the client-side delta).
TEST(PprofToFlat, FromAProfileMessageEqualsPprofToOtlp) {
  for (const auto& [name, data] : fixtures()) {
    Profile profile;
    ASSERT_TRUE(decodeProfile(data, &profile).isOk()) << name;
    for (const auto& [option_name, options] : optionSets()) {
      SCOPED_TRACE(name + " / " + option_name);
      otlp::Request want;
      ASSERT_TRUE(pprofToOtlp(profile, options, &want).isOk());
      flat::Batch batch;
      ASSERT_TRUE(pprofToFlat(profile, options, &batch).isOk());
      otlp::Request got;
      ASSERT_TRUE(flat::toRequest(batch, &got).isOk());
      EXPECT_EQ(differences(want, got), "");
    }
  }
}

// The receivers' bounds hold on the flat path as on the request path: the memory claim asks for the
// same bytes (decompressed input held + conversion estimate), a refusal is returned as is before
// anything is converted, and the decode options' profile limits apply.
TEST(PprofToFlat, ClaimsTheSameMemoryAndAppliesTheDecodeLimits) {
  for (const auto& [name, data] : fixtures()) {
    SCOPED_TRACE(name);
    std::vector<size_t> asked_otlp, asked_flat;
    PprofToOtlpOptions options;
    options.keep_original_payload = true;
    options.reserve_memory = [&](size_t bytes) { return asked_otlp.push_back(bytes), Status::ok(); };
    otlp::Request req;
    ASSERT_TRUE(pprofBytesToOtlp(data, options, &req).isOk());
    options.reserve_memory = [&](size_t bytes) { return asked_flat.push_back(bytes), Status::ok(); };
    flat::Batch batch;
    ASSERT_TRUE(pprofBytesToFlat(data, options, &batch).isOk());
    ASSERT_EQ(asked_flat.size(), 1u);
    EXPECT_EQ(asked_flat, asked_otlp);
    EXPECT_GT(asked_flat[0], data.size());

    options.reserve_memory = [](size_t) { return Status::exhausted("over budget"); };
    flat::Batch untouched;
    auto st = pprofBytesToFlat(data, options, &untouched);
    EXPECT_EQ(st.code(), StatusCode::kResourceExhausted);
    EXPECT_EQ(st.message(), "over budget");
    EXPECT_TRUE(untouched.profiles.empty());
  }
  DecodeOptions decode;
  decode.profile_limits.max_samples = 1;
  otlp::Request req;
  flat::Batch batch;
  const std::string small = testdata::smallProfile().SerializeAsString();
  auto want = pprofBytesToOtlp(small, {}, &req, decode);
  auto got = pprofBytesToFlat(small, {}, &batch, decode);
  EXPECT_EQ(got.code(), StatusCode::kPayloadTooLarge);
  EXPECT_EQ(got.toString(), want.toString());
}

// flat -> pprof: the decoded Profile messages of flatToPprof equal otlpToPprof's, and the encoded
// bytes (gzip included) are identical.
void expectSamePprofs(const otlp::Request& req, const flat::Batch& batch, const OtlpToPprofOptions& options) {
  std::vector<PprofFromOtlp> want, got;
  auto want_status = otlpToPprof(req, &want, options);
  auto got_status = flatToPprof(batch, &got, options);
  ASSERT_EQ(got_status.toString(), want_status.toString());
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("pprof " + std::to_string(i));
    std::string diff;
    MessageDifferencer d;
    d.ReportDifferencesToString(&diff);
    EXPECT_TRUE(d.Compare(want[i].profile, got[i].profile)) << diff;
    EXPECT_EQ(got[i].resource_index, want[i].resource_index);
    EXPECT_EQ(got[i].scope_index, want[i].scope_index);
    EXPECT_EQ(got[i].profile_indices, want[i].profile_indices);
  }
  std::vector<EncodedPprof> want_bytes, got_bytes;
  ASSERT_EQ(flatToPprofBytes(batch, &got_bytes, options).toString(),
            otlpToPprofBytes(req, &want_bytes, options).toString());
  ASSERT_EQ(got_bytes.size(), want_bytes.size());
  for (size_t i = 0; i < want_bytes.size(); ++i) EXPECT_TRUE(got_bytes[i].data == want_bytes[i].data) << i;
}

std::vector<std::pair<std::string, OtlpToPprofOptions>> backOptions() {
  OtlpToPprofOptions drop;
  drop.timestamps = OtlpToPprofOptions::Timestamps::kDrop;
  return {{"label timestamps", {}}, {"drop timestamps", drop}};
}

TEST(FlatToPprof, EqualsOtlpToPprofOnEveryFixture) {
  for (const auto& [name, data] : fixtures()) {
    for (const auto& [option_name, options] : optionSets()) {
      for (const auto& [back_name, back] : backOptions()) {
        SCOPED_TRACE(name + " / " + option_name + " / " + back_name);
        otlp::Request req;
        ASSERT_TRUE(pprofBytesToOtlp(data, options, &req).isOk());
        flat::Batch batch;
        ASSERT_TRUE(pprofBytesToFlat(data, options, &batch).isOk());
        expectSamePprofs(req, batch, back);
      }
    }
  }
}

// OTLP that did not come from pprof: other producers' layouts, links, timestamps, several resources.
TEST(FlatToPprof, EqualsOtlpToPprofOnOtherProducersRequests) {
  for (const auto& [name, req] : flat::testing::corpus()) {
    for (const auto& [back_name, back] : backOptions()) {
      SCOPED_TRACE(name + " / " + back_name);
      flat::Batch batch;
      ASSERT_TRUE(flat::fromRequest(req, &batch).isOk());
      expectSamePprofs(req, batch, back);
    }
  }
}

// A request of one profile with one sample (stack leaf <- main) whose values are `values`.
otlp::Request oneSampleRequest(std::initializer_list<int64_t> values) {
  ::proflow::testing::ProfileSpec spec;
  spec.samples.push_back({{"leaf", "main"}, 1});
  otlp::Request req = ::proflow::testing::makeRequest("svc", {spec});
  auto* sample = req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->mutable_samples(0);
  sample->clear_values();
  for (int64_t v : values) sample->add_values(v);
  return req;
}

// A sample's values are summed into one pprof value: values a sender chose must not overflow it.
TEST(FlatToPprof, SummedSampleValuesSaturateInsteadOfOverflowing) {
  otlp::Request req = oneSampleRequest({std::numeric_limits<int64_t>::max(), 5});
  flat::Batch batch;
  ASSERT_TRUE(flat::fromRequest(req, &batch).isOk());
  std::vector<PprofFromOtlp> from_flat, from_request;
  ASSERT_TRUE(flatToPprof(batch, &from_flat).isOk());
  ASSERT_TRUE(otlpToPprof(req, &from_request).isOk());
  for (const auto* out : {&from_flat, &from_request}) {
    ASSERT_EQ(out->size(), 1u);
    ASSERT_EQ((*out)[0].profile.sample_size(), 1);
    EXPECT_EQ((*out)[0].profile.sample(0).value(0), std::numeric_limits<int64_t>::max());
  }
}

// A sample with events becomes one pprof sample per event. Values that do not pair with the
// events (here two values for three events) go to the first event as their sum; the others get 0.
TEST(FlatToPprof, ValuesThatDoNotPairWithTheEventsAreSummedIntoTheFirstEvent) {
  otlp::Request req = oneSampleRequest({4, 5});
  auto* sample = req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->mutable_samples(0);
  for (uint64_t t : {1000u, 2000u, 3000u}) sample->add_timestamps_unix_nano(t);
  flat::Batch batch;
  ASSERT_TRUE(flat::fromRequest(req, &batch).isOk());
  std::vector<PprofFromOtlp> out;
  ASSERT_TRUE(flatToPprof(batch, &out).isOk());
  ASSERT_EQ(out.size(), 1u);
  const Profile& p = out[0].profile;
  ASSERT_EQ(p.sample_size(), 3);
  const int64_t want[] = {9, 0, 0};
  for (int e = 0; e < 3; ++e) {
    ASSERT_EQ(p.sample(e).value_size(), 1);
    EXPECT_EQ(p.sample(e).value(0), want[e]) << e;
    ASSERT_GE(p.sample(e).label_size(), 1);
    const auto& time = p.sample(e).label(p.sample(e).label_size() - 1);
    EXPECT_EQ(p.string_table(time.key()), kTimestampLabel) << e;
    EXPECT_EQ(time.num(), 1000 * (e + 1)) << e;
  }
  expectSamePprofs(req, batch, {});
}

TEST(FlatToPprof, DanglingIndexesAreRefusedWithOtlpToPprofsMessage) {
  otlp::Request req;
  ASSERT_TRUE(pprofToOtlp(testdata::smallProfile(), {}, &req).isOk());
  for (int field = 0; field < 3; ++field) {
    otlp::Request bad = req;
    auto* sample = bad.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(1)->mutable_samples(1);
    if (field == 0) sample->set_stack_index(77);
    if (field == 1) sample->add_attribute_indices(78);
    if (field == 2) sample->set_link_index(79);
    flat::Batch batch;
    ASSERT_TRUE(flat::fromRequest(bad, &batch).isOk());
    std::vector<PprofFromOtlp> out;
    auto st = flatToPprof(batch, &out);
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << field;
    EXPECT_NE(st.toString().find("out of range"), std::string::npos) << st.toString();
    expectSamePprofs(bad, batch, {});
  }
}

}  // namespace
}  // namespace proflow::pprof
