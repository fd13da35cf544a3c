// OTLP -> pprof (flatToPprof, fed requests through tests/support/pprof_request.h): every field
// survives a round trip; OTLP from other producers converts sensibly.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "tests/support/dictionary_builder.h"
#include "tests/support/pprof_request.h"
#include "core/formats/pprof/pprof_ids.h"
#include "tests/support/pprof_request.h"
#include "core/formats/pprof/profile_draft.h"
#include "tests/support/request_merger.h"
#include "tests/core/formats/pprof/conversion_helpers.h"
#include "tests/core/formats/pprof/test_profiles.h"

namespace proflow::pprof {
namespace {

using namespace testdata;  // NOLINT: test helpers

TEST(RoundTrip, EveryFieldSurvivesThroughTheWire) {
  const Profile p = richProfile();
  otlp::Request req;
  ASSERT_TRUE(pprofToOtlp(p, {}, &req).isOk());
  otlp::Request wire;
  ASSERT_TRUE(wire.ParseFromString(req.SerializeAsString()));
  std::vector<PprofFromOtlp> back;
  auto st = otlpToPprof(wire, &back);
  ASSERT_TRUE(st.isOk()) << st.toString();
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].profile_indices, (std::vector<int>{0, 1}));
  ASSERT_TRUE(validateProfile(back[0].profile).isOk());
  EXPECT_EQ(describe(back[0].profile), describe(p));
}

TEST(RoundTrip, UnreferencedMappingsSurviveAMerge) {
  const Profile p = richProfile();
  otlp::Request req;
  ASSERT_TRUE(pprofToOtlp(p, {}, &req).isOk());
  for (const auto& m : req.dictionary().mapping_table())  // not an orphan in the dictionary
    EXPECT_NE(dictString(req.dictionary(), m.filename_strindex()), "[vdso]");
  otlp::Request merged;
  RequestMerger merger(&merged);
  otlp::Request other;
  ASSERT_TRUE(pprofToOtlp(testdata::smallProfile(), {}, &other).isOk());
  merger.append(other);  // shifts every dictionary index of `req`
  merger.append(req);
  std::vector<PprofFromOtlp> back;
  ASSERT_TRUE(otlpToPprof(merged, &back).isOk());
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(describe(back[1].profile), describe(p));
}

TEST(RoundTrip, EncodedOutputMatchesMessages) {
  otlp::Request req;
  ASSERT_TRUE(pprofToOtlp(richProfile(), {}, &req).isOk());
  ASSERT_TRUE(pprofToOtlp(testdata::smallProfile(), {}, &req).isOk());
  std::vector<PprofFromOtlp> messages;
  ASSERT_TRUE(otlpToPprof(req, &messages).isOk());
  std::vector<EncodedPprof> encoded;
  ASSERT_TRUE(otlpToPprofBytes(req, &encoded).isOk());
  ASSERT_EQ(encoded.size(), messages.size());
  for (size_t i = 0; i < encoded.size(); ++i) {
    Profile p;
    ASSERT_TRUE(decodeProfile(encoded[i].data, &p).isOk());  // gzip by default, valid
    EXPECT_EQ(describe(p), describe(messages[i].profile));
    EXPECT_EQ(encoded[i].resource_index, messages[i].resource_index);
    EXPECT_EQ(encoded[i].profile_indices, messages[i].profile_indices);
  }
  EXPECT_EQ(encoded[1].resource_index, 1);
}

TEST(RoundTrip, ProfileWithoutSamplesKeepsItsHeader) {
  Profile p = testdata::smallProfile();
  p.clear_sample();
  p.set_period(99);
  otlp::Request req;
  ASSERT_TRUE(pprofToOtlp(p, {}, &req).isOk());
  std::vector<PprofFromOtlp> back;
  ASSERT_TRUE(otlpToPprof(req, &back).isOk());
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].profile.sample_type_size(), 2);
  EXPECT_EQ(back[0].profile.period(), 99);
  EXPECT_EQ(back[0].profile.sample_size(), 0);
}

TEST(RoundTrip, TwoProfilesInOneRequestStayApart) {
  otlp::Request req;
  Profile a = richProfile(), b = testdata::smallProfile();
  ASSERT_TRUE(pprofToOtlp(a, {}, &req).isOk());
  ASSERT_TRUE(pprofToOtlp(b, {}, &req).isOk());
  std::vector<PprofFromOtlp> back;
  ASSERT_TRUE(otlpToPprof(req, &back).isOk());
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[1].resource_index, 1);
  EXPECT_EQ(describe(back[0].profile), describe(a));
  EXPECT_EQ(describe(back[1].profile), describe(b));
}

TEST(RoundTrip, SampleTypeOrderIsRestoredWhenProfilesAreReordered) {
  const Profile p = richProfile();
  otlp::Request req;
  ASSERT_TRUE(pprofToOtlp(p, {}, &req).isOk());
  auto* sp = req.mutable_resource_profiles(0)->mutable_scope_profiles(0);
  sp->mutable_profiles()->SwapElements(0, 1);
  auto* order = sp->mutable_scope()->mutable_attributes(0)->mutable_value()->mutable_array_value();
  order->mutable_values(0)->set_int_value(1);
  order->mutable_values(1)->set_int_value(0);
  std::vector<PprofFromOtlp> back;
  ASSERT_TRUE(otlpToPprof(req, &back).isOk());
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(describe(back[0].profile), describe(p));
}

TEST(RoundTrip, ProfilesThatNoLongerLineUpBecomeSeparatePprofs) {
  otlp::Request req;
  ASSERT_TRUE(pprofToOtlp(richProfile(), {}, &req).isOk());
  req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(1)->mutable_samples()->RemoveLast();
  std::vector<PprofFromOtlp> back;
  ASSERT_TRUE(otlpToPprof(req, &back).isOk());
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].profile.sample_type_size(), 1);
  EXPECT_EQ(back[1].profile.sample_size(), 2);
  // Only the cpu profile keeps default_sample_type = cpu.
  EXPECT_EQ(back[0].profile.default_sample_type(), 0);
  EXPECT_EQ(back[1].profile.string_table(static_cast<int>(back[1].profile.default_sample_type())), "cpu");
}

// An OTLP profile as the eBPF profiler sends it: timestamps only, links, no pprof attributes.
otlp::Request foreignRequest() {
  otlp::Request req;
  DictionaryBuilder b(req.mutable_dictionary());
  otlp::Function f;
  f.set_name_strindex(b.string("main"));
  otlp::Location l;
  l.set_address(0x1234);
  l.add_lines()->set_function_index(b.function(f));
  int32_t loc = b.location(l);
  int32_t stack = b.stack(std::vector<int32_t>{loc});
  auto* prof = req.add_resource_profiles()->add_scope_profiles()->add_profiles();
  prof->mutable_sample_type()->set_type_strindex(b.string("samples"));
  prof->mutable_sample_type()->set_unit_strindex(b.string("count"));
  auto* s = prof->add_samples();
  s->set_stack_index(stack);
  s->add_timestamps_unix_nano(100);
  s->add_timestamps_unix_nano(200);
  s->add_timestamps_unix_nano(300);
  s->set_link_index(b.link(std::string(15, '\0') + "\x01", std::string(7, '\0') + "\x02"));
  s->add_attribute_indices(b.stringAttribute("thread.name", "worker"));
  auto* s2 = prof->add_samples();  // values with timestamps
  s2->set_stack_index(stack);
  s2->add_values(5);
  s2->add_values(7);
  s2->add_timestamps_unix_nano(400);
  s2->add_timestamps_unix_nano(500);
  return req;
}

// otlpToPprofBytes writes wire bytes itself (no Profile message): they must be exactly what
// protobuf's serializer makes of the message otlpToPprof returns.
TEST(OtlpToPprof, WireWriterMatchesProtobufSerializer) {
  otlp::Request rich;
  ASSERT_TRUE(pprofToOtlp(richProfile(), {}, &rich).isOk());
  ASSERT_TRUE(pprofToOtlp(testdata::smallProfile(), {}, &rich).isOk());
  for (const otlp::Request& req : {rich, foreignRequest()}) {
    std::vector<PprofFromOtlp> messages;
    ASSERT_TRUE(otlpToPprof(req, &messages).isOk());
    std::vector<EncodedPprof> raw;
    ASSERT_TRUE(otlpToPprofBytes(req, &raw, {}, Encoding::kRaw).isOk());
    ASSERT_EQ(raw.size(), messages.size());
    for (size_t i = 0; i < raw.size(); ++i) {
      EXPECT_GT(messages[i].profile.sample_size(), 0);
      EXPECT_EQ(raw[i].data, messages[i].profile.SerializeAsString()) << "pprof " << i;
    }
  }
}

// The writer copies a sample's encoded stack and labels as fixed-size blocks when they are short,
// and writes each event of a split sample on its own: stacks and label lists on both sides of that
// size, with two sample types and several events per sample (values per event from each profile),
// must still serialize exactly as protobuf does.
TEST(OtlpToPprof, WireWriterMatchesProtobufSerializerForSplitSamplesOfTwoTypes) {
  Profile p = richProfile();
  for (int i = 0; i < 40; ++i) p.mutable_sample(0)->add_location_id(1 + i % 2);  // a stack of > 32 bytes
  otlp::Request req;
  ASSERT_TRUE(pprofToOtlp(p, {}, &req).isOk());
  auto* scope = req.mutable_resource_profiles(0)->mutable_scope_profiles(0);
  ASSERT_EQ(scope->profiles_size(), 2);
  size_t events = 0;
  for (int k = 0; k < 2; ++k) {
    auto* prof = scope->mutable_profiles(k);
    for (int i = 0; i < prof->samples_size(); ++i) {
      auto* sample = prof->mutable_samples(i);
      sample->clear_values();
      sample->clear_timestamps_unix_nano();
      for (int e = 0; e < i + 2; ++e) {
        sample->add_values(1000 * (k + 1) + 10 * i + e);
        sample->add_timestamps_unix_nano(1700000000000000000ull + 1000 * static_cast<uint64_t>(i) + e);
      }
      if (k == 0) events += static_cast<size_t>(i + 2);
    }
  }
  std::vector<PprofFromOtlp> messages;
  ASSERT_TRUE(otlpToPprof(req, &messages).isOk());
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].profile.sample_type_size(), 2);
  EXPECT_EQ(static_cast<size_t>(messages[0].profile.sample_size()), events);
  std::vector<EncodedPprof> raw;
  ASSERT_TRUE(otlpToPprofBytes(req, &raw, {}, Encoding::kRaw).isOk());
  ASSERT_EQ(raw.size(), 1u);
  EXPECT_TRUE(raw[0].data == messages[0].profile.SerializeAsString());
}

// Larger than the writer's chunk, with one string larger than a chunk on its own: the bytes
// written chunk by chunk are still exactly protobuf's, and compressed as they are written (gzip
// through the streaming path, zstd collected) they inflate to the same bytes.
TEST(OtlpToPprof, ProfilesLargerThanAChunkAreWrittenAndCompressedInPieces) {
  Profile p = smallProfile();
  p.mutable_function(0)->set_name(addString(&p, std::string(3 * internal::kWriteChunk / 2, 'f')));
  std::mt19937 rng(3);
  const int key = addString(&p, "request"), unit = addString(&p, "bytes");
  for (int i = 0; i < 40000; ++i) {
    auto* s = p.add_sample();
    s->add_location_id(1 + rng() % 2);
    s->add_location_id(1 + rng() % 2);
    s->add_value(static_cast<int64_t>(rng() % 1000));
    s->add_value(static_cast<int64_t>(rng()));
    auto* l = s->add_label();
    l->set_key(key);
    l->set_num(static_cast<int64_t>(rng() % 100000));
    l->set_num_unit(unit);
  }
  otlp::Request req;
  ASSERT_TRUE(pprofToOtlp(p, {}, &req).isOk());
  std::vector<PprofFromOtlp> messages;
  ASSERT_TRUE(otlpToPprof(req, &messages).isOk());
  ASSERT_EQ(messages.size(), 1u);
  const std::string want = messages[0].profile.SerializeAsString();
  ASSERT_GT(want.size(), 4 * internal::kWriteChunk);
  std::vector<EncodedPprof> raw;
  ASSERT_TRUE(otlpToPprofBytes(req, &raw, {}, Encoding::kRaw).isOk());
  ASSERT_EQ(raw.size(), 1u);
  EXPECT_TRUE(raw[0].data == want);
  for (auto [encoding, level] : {std::pair{Encoding::kGzip, 1}, {Encoding::kGzip, 3}, {Encoding::kGzip, 6},
                                 {Encoding::kZstd, 1}}) {
    SCOPED_TRACE(std::to_string(static_cast<int>(encoding)) + " level " + std::to_string(level));
    std::vector<EncodedPprof> packed;
    ASSERT_TRUE(otlpToPprofBytes(req, &packed, {}, encoding, level).isOk());
    ASSERT_EQ(packed.size(), 1u);
    EXPECT_LT(packed[0].data.size(), want.size() / 2);
    std::string inflated;
    ASSERT_TRUE(decompressProfile(packed[0].data, &inflated, {.max_output_bytes = 64u << 20}).isOk());
    EXPECT_TRUE(inflated == want);
  }
}

TEST(OtlpToPprof, TimestampsBecomeLabelledSamples) {
  std::vector<PprofFromOtlp> back;
  auto st = otlpToPprof(foreignRequest(), &back);
  ASSERT_TRUE(st.isOk()) << st.toString();
  ASSERT_EQ(back.size(), 1u);
  const Profile& p = back[0].profile;
  ASSERT_TRUE(validateProfile(p).isOk());
  ASSERT_EQ(p.sample_size(), 5);  // 3 events + 2 events
  auto S = [&](int64_t i) { return p.string_table(static_cast<int>(i)); };
  std::vector<int64_t> values, stamps;
  for (const auto& s : p.sample()) {
    values.push_back(s.value(0));
    for (const auto& l : s.label())
      if (S(l.key()) == kTimestampLabel) {
        stamps.push_back(l.num());
        EXPECT_EQ(S(l.num_unit()), "nanoseconds");
      }
  }
  EXPECT_EQ(values, (std::vector<int64_t>{1, 1, 1, 5, 7}));
  EXPECT_EQ(stamps, (std::vector<int64_t>{100, 200, 300, 400, 500}));
  // The link is kept as labels on the first sample; thread.name as a string label.
  std::map<std::string, std::string> labels;
  for (const auto& l : p.sample(0).label())
    if (l.str()) labels[S(l.key())] = S(l.str());
  EXPECT_EQ(labels["span_id"], "0000000000000002");
  EXPECT_EQ(labels["trace_id"], "00000000000000000000000000000001");
  EXPECT_EQ(labels["thread.name"], "worker");
  // The other events of that sample carry its stack and every label but the timestamp.
  auto withoutTimestamp = [&](const perftools::profiles::Sample& s) {
    std::vector<std::string> out;
    for (const auto& l : s.label())
      if (S(l.key()) != kTimestampLabel) out.push_back(S(l.key()) + "=" + S(l.str()));
    return out;
  };
  for (int i : {1, 2}) {
    EXPECT_EQ(std::vector<uint64_t>(p.sample(i).location_id().begin(), p.sample(i).location_id().end()),
              std::vector<uint64_t>(p.sample(0).location_id().begin(), p.sample(0).location_id().end()))
        << i;
    EXPECT_EQ(withoutTimestamp(p.sample(i)), withoutTimestamp(p.sample(0))) << i;
    EXPECT_EQ(p.sample(i).label_size(), p.sample(0).label_size()) << i;
  }
}

TEST(OtlpToPprof, UnsetSampleTypeBecomesSamplesCount) {
  auto req = foreignRequest();
  req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->clear_sample_type();
  std::vector<PprofFromOtlp> back;
  ASSERT_TRUE(otlpToPprof(req, &back).isOk());
  const Profile& p = back[0].profile;
  EXPECT_EQ(p.string_table(static_cast<int>(p.sample_type(0).type())), "samples");
  EXPECT_EQ(p.string_table(static_cast<int>(p.sample_type(0).unit())), "count");
}

TEST(OtlpToPprof, TimestampsCanBeDropped) {
  OtlpToPprofOptions o;
  o.timestamps = OtlpToPprofOptions::Timestamps::kDrop;
  std::vector<PprofFromOtlp> back;
  ASSERT_TRUE(otlpToPprof(foreignRequest(), &back, o).isOk());
  const Profile& p = back[0].profile;
  ASSERT_EQ(p.sample_size(), 2);
  EXPECT_EQ(p.sample(0).value(0), 3);   // timestamps only -> count
  EXPECT_EQ(p.sample(1).value(0), 12);  // values summed
}

// Random corruption of a serialized request: conversion either succeeds with a valid pprof or fails
// with an error; it never reads outside a table.
TEST(OtlpToPprof, CorruptedRequestsNeverCrash) {
  otlp::Request base;
  ASSERT_TRUE(pprofToOtlp(richProfile(), {}, &base).isOk());
  otlp::Request foreign = foreignRequest();
  std::mt19937 rng(1);
  int converted = 0, rejected = 0;
  for (const otlp::Request* src : {&base, &foreign}) {
    const std::string wire = src->SerializeAsString();
    for (int i = 0; i < 3000; ++i) {
      std::string m = wire;
      for (int k = 0; k < 1 + i % 4; ++k) m[rng() % m.size()] ^= static_cast<char>(1 << (rng() % 8));
      otlp::Request req;
      if (!req.ParseFromString(m)) continue;
      std::vector<PprofFromOtlp> back;
      if (otlpToPprof(req, &back).isOk()) {
        ++converted;
        for (const auto& b : back) EXPECT_TRUE(validateProfile(b.profile).isOk());
      } else {
        ++rejected;
      }
    }
  }
  EXPECT_GT(converted, 0);
  EXPECT_GT(rejected, 0);
}

TEST(OtlpToPprof, DanglingIndexesFailCleanly) {
  auto req = foreignRequest();
  auto* s = req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->mutable_samples(0);
  std::vector<PprofFromOtlp> back;
  s->set_stack_index(1000);
  EXPECT_EQ(otlpToPprof(req, &back).code(), StatusCode::kInvalidArgument);
  s->set_stack_index(1);
  s->add_attribute_indices(-3);
  EXPECT_EQ(otlpToPprof(req, &back).code(), StatusCode::kInvalidArgument);
  req = foreignRequest();
  req.mutable_dictionary()->mutable_stack_table(1)->add_location_indices(77);
  auto st = otlpToPprof(req, &back);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("location index 77"), std::string::npos) << st.message();
  req = foreignRequest();
  req.mutable_dictionary()->mutable_location_table(1)->mutable_lines(0)->set_function_index(99);
  EXPECT_EQ(otlpToPprof(req, &back).code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace proflow::pprof
