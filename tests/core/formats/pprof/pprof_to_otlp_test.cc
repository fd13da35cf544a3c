// pprof -> OTLP (pprofToFlat, read as a request through tests/support/pprof_request.h): the
// collector-contrib translator rules and the additions for a lossless way back.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "tests/support/dictionary_builder.h"
#include "tests/support/pprof_request.h"
#include "core/formats/pprof/pprof_ids.h"
#include "tests/support/pprof_request.h"
#include "tests/support/request_merger.h"
#include "tests/core/formats/pprof/conversion_helpers.h"
#include "tests/core/formats/pprof/test_profiles.h"

namespace proflow::pprof {
namespace {

using namespace testdata;  // NOLINT: test helpers

TEST(PprofToOtlp, FollowsTranslatorRules) {
  const Profile p = richProfile();
  ASSERT_TRUE(validateProfile(p).isOk());
  otlp::Request req;
  PprofToOtlpOptions opts;
  opts.resource_attributes = {{"service.name", "checkout"}};
  ASSERT_TRUE(pprofToOtlp(p, opts, &req).isOk());
  const auto& d = req.dictionary();
  const auto& rp = req.resource_profiles(0);
  EXPECT_EQ(rp.resource().attributes(0).key(), "service.name");
  ASSERT_EQ(rp.scope_profiles_size(), 1);
  const auto& sp = rp.scope_profiles(0);
  ASSERT_EQ(sp.profiles_size(), 2);  // one per sample type
  // Scope attributes carry the order and the default type.
  bool saw_order = false, saw_default = false;
  for (const auto& kv : sp.scope().attributes()) {
    if (kv.key() == attr::kSampleTypeOrder) {
      saw_order = true;
      ASSERT_EQ(kv.value().array_value().values_size(), 2);
      EXPECT_EQ(kv.value().array_value().values(1).int_value(), 1);
    }
    if (kv.key() == attr::kDefaultSampleType) saw_default = kv.value().string_value() == "cpu";
  }
  EXPECT_TRUE(saw_order);
  EXPECT_TRUE(saw_default);

  const auto& cpu = sp.profiles(1);
  EXPECT_EQ(dictString(d, cpu.sample_type().type_strindex()), "cpu");
  EXPECT_EQ(cpu.period(), 10000000);
  EXPECT_EQ(cpu.time_unix_nano(), 1700000000123456789u);
  EXPECT_EQ(cpu.duration_nano(), 10000000000u);
  ASSERT_EQ(cpu.samples_size(), 3);
  EXPECT_EQ(cpu.samples(1).values(0), 20000000);
  EXPECT_EQ(sp.profiles(0).samples(1).values(0), 2);
  ASSERT_TRUE(findAttr(d, cpu.attribute_indices(), attr::kDropFrames));
  EXPECT_EQ(findAttr(d, cpu.attribute_indices(), attr::kComment)->value().array_value().values_size(), 2);
  EXPECT_TRUE(cpu.original_payload_format().empty());

  // Sample 0: hex span + trace -> link; labels stay attributes; num_unit -> unit.
  const auto& s0 = cpu.samples(0);
  ASSERT_NE(s0.link_index(), 0);
  EXPECT_EQ(d.link_table(s0.link_index()).span_id(), std::string(7, '\0') + "\xab");
  EXPECT_EQ(d.link_table(s0.link_index()).trace_id(), std::string(14, '\0') + "\xcd\xef");
  ASSERT_TRUE(findAttr(d, s0.attribute_indices(), "span_id"));
  const auto* alloc = findAttr(d, s0.attribute_indices(), "alloc");
  ASSERT_TRUE(alloc);
  EXPECT_EQ(alloc->value().int_value(), 3);
  EXPECT_EQ(dictString(d, alloc->unit_strindex()), "kilobytes");
  // Sample 1: Datadog numeric "span id" wins over the root span; no trace id -> zero trace id;
  // the timestamp label becomes the sample timestamp.
  const auto& s1 = cpu.samples(1);
  ASSERT_NE(s1.link_index(), 0);
  EXPECT_EQ(d.link_table(s1.link_index()).span_id(), std::string(6, '\0') + "\x04\xd2");
  EXPECT_EQ(d.link_table(s1.link_index()).trace_id(), std::string(16, '\0'));
  ASSERT_EQ(s1.timestamps_unix_nano_size(), 1);
  EXPECT_EQ(s1.timestamps_unix_nano(0), 1700000000500000000u);
  EXPECT_EQ(cpu.samples(2).link_index(), 0);

  // Mappings: build id classification and has_* flags; location is_folded.
  const auto& loc = d.location_table(d.stack_table(s0.stack_index()).location_indices(2));
  ASSERT_TRUE(findAttr(d, loc.attribute_indices(), attr::kIsFolded));
  const auto& gomap = d.mapping_table(loc.mapping_index());
  EXPECT_EQ(findAttr(d, gomap.attribute_indices(), attr::kBuildIdGo)->value().string_value(), "aaa/bbb/ccc/ddd");
  EXPECT_TRUE(findAttr(d, gomap.attribute_indices(), attr::kHasInlineFrames));
  EXPECT_FALSE(findAttr(d, gomap.attribute_indices(), attr::kHasFunctions));
  EXPECT_EQ(loc.lines(0).column(), 7);
}

TEST(PprofToOtlp, OmitsEmptyProfileAttributes) {
  otlp::Request req;
  ASSERT_TRUE(pprofToOtlp(testdata::smallProfile(), {}, &req).isOk());
  const auto& sp = req.resource_profiles(0).scope_profiles(0);
  for (const auto& prof : sp.profiles()) EXPECT_EQ(prof.attribute_indices_size(), 0);
  for (const auto& kv : sp.scope().attributes()) EXPECT_NE(kv.key(), attr::kDefaultSampleType);
  for (const auto& m : req.dictionary().mapping_table()) EXPECT_EQ(m.attribute_indices_size(), 0);
}

TEST(PprofToOtlp, RefusesInvalidProfileWithoutTouchingOutput) {
  Profile p = testdata::smallProfile();
  p.mutable_sample(0)->set_location_id(0, 42);
  otlp::Request req;
  auto st = pprofToOtlp(p, {}, &req);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("sample 0: location_id 42 not found"), std::string::npos);
  EXPECT_EQ(req.resource_profiles_size(), 0);
}

TEST(PprofToOtlp, NonUtf8StringsAreAcceptedAndSanitized) {
  Profile p = testdata::smallProfile();
  p.mutable_function(0)->set_name(addString(&p, "caf\xe9"));  // Latin-1, as old C++ tools write
  p.mutable_mapping(0)->set_build_id(addString(&p, std::string("\x7e\x9a\x00\xff", 4)));  // raw note bytes
  addLabel(&p, p.mutable_sample(0), "path", "/tmp/\xff\xfe");
  std::string raw;
  ASSERT_TRUE(encodeProfile(p, &raw, Encoding::kRaw).isOk());
  Profile decoded;
  ASSERT_TRUE(decodeProfile(raw, &decoded).isOk());  // pprof readers do not require UTF-8
  otlp::Request req;
  ASSERT_TRUE(pprofToOtlp(decoded, {}, &req).isOk());
  otlp::Request wire;
  ASSERT_TRUE(wire.ParseFromString(req.SerializeAsString()));  // OTLP strings must be UTF-8
  const auto& d = wire.dictionary();
  bool saw_name = false;
  for (const auto& s : d.string_table()) saw_name |= s == "caf\xef\xbf\xbd";
  EXPECT_TRUE(saw_name);
  const auto& m = d.mapping_table(d.location_table(1).mapping_index());
  EXPECT_EQ(findAttr(d, m.attribute_indices(), attr::kBuildIdGnu)->value().string_value(), "7e9a00ff");
}

TEST(PprofToOtlp, RefusesSampleAmplification) {
  Profile p = testdata::smallProfile();  // 2 samples x 2 types = 4 OTLP samples
  PprofToOtlpOptions o;
  o.max_otlp_samples = 3;
  otlp::Request req;
  auto st = pprofToOtlp(p, o, &req);
  EXPECT_EQ(st.code(), StatusCode::kPayloadTooLarge);
  EXPECT_NE(st.message().find("2 samples x 2 sample types = 4 OTLP samples"), std::string::npos) << st.message();
  EXPECT_EQ(req.resource_profiles_size(), 0);
  o.max_otlp_samples = 4;
  EXPECT_TRUE(pprofToOtlp(p, o, &req).isOk());
}

TEST(PprofToOtlp, OriginalPayloadOnlyWhenAsked) {
  std::string gz;
  ASSERT_TRUE(encodeProfile(testdata::smallProfile(), &gz).isOk());
  PprofToOtlpOptions o;
  o.keep_original_payload = true;
  otlp::Request req;
  ASSERT_TRUE(pprofBytesToOtlp(gz, o, &req).isOk());
  const auto& sp = req.resource_profiles(0).scope_profiles(0);
  EXPECT_EQ(sp.profiles(0).original_payload_format(), "pprof");
  EXPECT_EQ(sp.profiles(0).original_payload(), gz);
  EXPECT_TRUE(sp.profiles(1).original_payload().empty());  // once per pprof, not per sample type
}

TEST(PprofToOtlp, IntoExistingResourceAndSharedDictionary) {
  otlp::Request req;
  ASSERT_TRUE(pprofToOtlp(testdata::smallProfile(), {}, &req).isOk());
  const int strings = req.dictionary().string_table_size();
  PprofToOtlpOptions o;
  o.resource_index = 0;
  ASSERT_TRUE(pprofToOtlp(testdata::smallProfile(), o, &req).isOk());
  EXPECT_EQ(req.resource_profiles_size(), 1);
  EXPECT_EQ(req.resource_profiles(0).scope_profiles_size(), 2);
  EXPECT_EQ(req.dictionary().string_table_size(), strings);  // everything interned once
  o.resource_index = 5;
  EXPECT_FALSE(pprofToOtlp(testdata::smallProfile(), o, &req).isOk());
}

TEST(PprofToOtlp, RootSpanAndDecimalTraceId) {
  Profile p = testdata::smallProfile();
  addNum(&p, p.mutable_sample(0), "local root span id", 42, "");
  addLabel(&p, p.mutable_sample(0), "trace_id", "12345678901234567890");  // 20 digits: decimal
  otlp::Request req;
  ASSERT_TRUE(pprofToOtlp(p, {}, &req).isOk());
  const auto& d = req.dictionary();
  const auto& s = req.resource_profiles(0).scope_profiles(0).profiles(0).samples(0);
  ASSERT_NE(s.link_index(), 0);
  EXPECT_EQ(d.link_table(s.link_index()).span_id(), std::string(7, '\0') + "\x2a");
  // 12345678901234567890 = 0xab54a98ceb1f0ad2 in the low 8 bytes.
  EXPECT_EQ(d.link_table(s.link_index()).trace_id(), std::string(8, '\0') + "\xab\x54\xa9\x8c\xeb\x1f\x0a\xd2");
  PprofToOtlpOptions no_links;
  no_links.trace_links = false;
  otlp::Request plain;
  ASSERT_TRUE(pprofToOtlp(p, no_links, &plain).isOk());
  EXPECT_EQ(plain.resource_profiles(0).scope_profiles(0).profiles(0).samples(0).link_index(), 0);
}

}  // namespace
}  // namespace proflow::pprof
