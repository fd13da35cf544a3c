// pprof <-> flat::Batch on every committed pprof fixture and option set: the batch encodes to the
// bytes protobuf's serializer writes for the same content, the bytes and the message entry points
// agree, appending reuses the dictionary, refusals leave the batch as it was, memory is claimed
// before converting, and the way back agrees with itself in its two forms (messages and bytes).
#include <gtest/gtest.h>
#include <google/protobuf/util/message_differencer.h>

#include <initializer_list>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/flat/flat_encode.h"
#include "core/formats/pprof/flat_to_pprof.h"
#include "core/formats/pprof/pprof_ids.h"
#include "core/formats/pprof/pprof_to_flat.h"
#include "tests/support/flat_request.h"
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

TEST(PprofToFlat, EncodesAsProtobufSerializesTheSameContentOnEveryFixture) {
  for (const auto& [name, data] : fixtures()) {
    for (const auto& [option_name, options] : optionSets()) {
      SCOPED_TRACE(name + " / " + option_name);
      flat::Batch batch;
      auto st = pprofBytesToFlat(data, options, &batch);
      ASSERT_TRUE(st.isOk()) << st.toString();
      otlp::Request got;
      ASSERT_TRUE(flat::toRequest(batch, &got).isOk());
      EXPECT_EQ(::proflow::testing::dictionaryProblems(got), std::vector<std::string>{});
      EXPECT_EQ(got.resource_profiles(0).scope_profiles(0).scope().name(), options.scope_name);
      // Canonical output: the same bytes as protobuf's serializer.
      EXPECT_EQ(flat::encode(batch), got.SerializeAsString());
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

TEST(PprofToFlat, AppendsToAnExistingBatchReusingItsDictionary) {
  const auto all = fixtures();
  flat::Batch batch;
  size_t scopes = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    PprofToOtlpOptions options;
    options.resource_index = i % 2 == 0 ? -1 : 0;  // alternately a new resource and the first one
    ASSERT_TRUE(pprofBytesToFlat(all[i].second, options, &batch).isOk()) << all[i].first;
    ++scopes;
  }
  EXPECT_EQ(batch.resources.size(), (all.size() + 1) / 2);
  EXPECT_EQ(batch.scopes.size(), scopes);
  otlp::Request got;
  ASSERT_TRUE(flat::toRequest(batch, &got).isOk());
  EXPECT_EQ(::proflow::testing::dictionaryProblems(got), std::vector<std::string>{});
  // The same pprof again into the first resource: every dictionary entry exists already.
  const size_t strings = batch.strings.size(), locations = batch.locations.size(), stacks = batch.stacks.size();
  PprofToOtlpOptions again;
  again.resource_index = 0;
  ASSERT_TRUE(pprofBytesToFlat(all[0].second, again, &batch).isOk());
  EXPECT_EQ(batch.strings.size(), strings);
  EXPECT_EQ(batch.locations.size(), locations);
  EXPECT_EQ(batch.stacks.size(), stacks);
}

TEST(PprofToFlat, RefusesAndLeavesTheBatchUnchanged) {
  flat::Batch batch;
  ASSERT_TRUE(pprofBytesToFlat(testdata::smallProfile().SerializeAsString(), {}, &batch).isOk());
  const std::string before = flat::encode(batch);

  Profile dangling = testdata::smallProfile();
  dangling.mutable_sample(0)->add_location_id(999);
  auto got = pprofBytesToFlat(dangling.SerializeAsString(), {}, &batch);
  EXPECT_EQ(got.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(got.toString().find("location_id 999 not found"), std::string::npos) << got.toString();

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

// The scrape path converts a decoded Profile message (after the client-side delta): the same batch
// as the bytes path (the original payload aside: the message path keeps its serialization).
TEST(PprofToFlat, FromAProfileMessageEqualsFromItsBytes) {
  for (const auto& [name, data] : fixtures()) {
    Profile profile;
    ASSERT_TRUE(decodeProfile(data, &profile).isOk()) << name;
    for (const auto& [option_name, options] : optionSets()) {
      if (options.keep_original_payload) continue;
      SCOPED_TRACE(name + " / " + option_name);
      flat::Batch want;
      ASSERT_TRUE(pprofBytesToFlat(data, options, &want).isOk());
      flat::Batch batch;
      ASSERT_TRUE(pprofToFlat(profile, options, &batch).isOk());
      otlp::Request want_request, got;
      ASSERT_TRUE(flat::toRequest(want, &want_request).isOk());
      ASSERT_TRUE(flat::toRequest(batch, &got).isOk());
      EXPECT_EQ(differences(want_request, got), "");
    }
  }
}

// The receivers' bounds hold on the flat path as on the request path: the memory claim asks for the
// same bytes (decompressed input held + conversion estimate), a refusal is returned as is before
// anything is converted, and the decode options' profile limits apply.
TEST(PprofToFlat, ClaimsTheSameMemoryAndAppliesTheDecodeLimits) {
  for (const auto& [name, data] : fixtures()) {
    SCOPED_TRACE(name);
    std::vector<size_t> asked_flat;
    PprofToOtlpOptions options;
    options.keep_original_payload = true;
    options.reserve_memory = [&](size_t bytes) { return asked_flat.push_back(bytes), Status::ok(); };
    flat::Batch batch;
    ASSERT_TRUE(pprofBytesToFlat(data, options, &batch).isOk());
    ASSERT_EQ(asked_flat.size(), 1u);
    // At least the body and its decompressed form, both held while converting.
    EXPECT_GT(asked_flat[0], 2 * data.size());

    options.reserve_memory = [](size_t) { return Status::exhausted("over budget"); };
    flat::Batch untouched;
    auto st = pprofBytesToFlat(data, options, &untouched);
    EXPECT_EQ(st.code(), StatusCode::kResourceExhausted);
    EXPECT_EQ(st.message(), "over budget");
    EXPECT_TRUE(untouched.profiles.empty());
  }
  DecodeOptions decode;
  decode.profile_limits.max_samples = 1;
  flat::Batch batch;
  const std::string small = testdata::smallProfile().SerializeAsString();
  auto got = pprofBytesToFlat(small, {}, &batch, decode);
  EXPECT_EQ(got.code(), StatusCode::kPayloadTooLarge);
  EXPECT_NE(got.toString().find("max_samples"), std::string::npos) << got.toString();
  EXPECT_TRUE(batch.profiles.empty());
}

// flat -> pprof: the encoded bytes (gzip included) decode to the Profile messages flatToPprof
// returns, from the same groups of the batch.
void expectBytesMatchMessages(const flat::Batch& batch, const OtlpToPprofOptions& options) {
  std::vector<PprofFromOtlp> messages;
  std::vector<EncodedPprof> bytes;
  const Status message_status = flatToPprof(batch, &messages, options);
  ASSERT_EQ(flatToPprofBytes(batch, &bytes, options).toString(), message_status.toString());
  ASSERT_EQ(bytes.size(), messages.size());
  for (size_t i = 0; i < messages.size(); ++i) {
    SCOPED_TRACE("pprof " + std::to_string(i));
    Profile decoded;
    ASSERT_TRUE(decodeProfile(bytes[i].data, &decoded).isOk());
    std::string diff;
    MessageDifferencer d;
    d.ReportDifferencesToString(&diff);
    EXPECT_TRUE(d.Compare(messages[i].profile, decoded)) << diff;
    EXPECT_EQ(bytes[i].resource_index, messages[i].resource_index);
    EXPECT_EQ(bytes[i].scope_index, messages[i].scope_index);
    EXPECT_EQ(bytes[i].profile_indices, messages[i].profile_indices);
  }
}

std::vector<std::pair<std::string, OtlpToPprofOptions>> backOptions() {
  OtlpToPprofOptions drop;
  drop.timestamps = OtlpToPprofOptions::Timestamps::kDrop;
  return {{"label timestamps", {}}, {"drop timestamps", drop}};
}

TEST(FlatToPprof, BytesEqualMessagesOnEveryFixture) {
  for (const auto& [name, data] : fixtures()) {
    for (const auto& [option_name, options] : optionSets()) {
      for (const auto& [back_name, back] : backOptions()) {
        SCOPED_TRACE(name + " / " + option_name + " / " + back_name);
        flat::Batch batch;
        ASSERT_TRUE(pprofBytesToFlat(data, options, &batch).isOk());
        expectBytesMatchMessages(batch, back);
      }
    }
  }
}

// OTLP that did not come from pprof: other producers' layouts, links, timestamps, several resources.
TEST(FlatToPprof, BytesEqualMessagesOnOtherProducersRequests) {
  for (const auto& [name, req] : flat::testing::corpus()) {
    for (const auto& [back_name, back] : backOptions()) {
      SCOPED_TRACE(name + " / " + back_name);
      flat::Batch batch;
      ASSERT_TRUE(flat::fromRequest(req, &batch).isOk());
      expectBytesMatchMessages(batch, back);
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
  std::vector<PprofFromOtlp> out;
  ASSERT_TRUE(flatToPprof(batch, &out).isOk());
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].profile.sample_size(), 1);
  EXPECT_EQ(out[0].profile.sample(0).value(0), std::numeric_limits<int64_t>::max());
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
  expectBytesMatchMessages(batch, {});
}

TEST(FlatToPprof, DanglingIndexesAreRefused) {
  flat::Batch converted;
  ASSERT_TRUE(pprofToFlat(testdata::smallProfile(), {}, &converted).isOk());
  otlp::Request req;
  ASSERT_TRUE(flat::toRequest(converted, &req).isOk());
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
    expectBytesMatchMessages(batch, {});
  }
}

}  // namespace
}  // namespace proflow::pprof
