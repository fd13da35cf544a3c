// pprof <-> OTLP on hand-built profiles: every pprof field (including the ones `pprof -raw` does not
// print) survives, the OTLP side follows the translator rules, and OTLP from other sources converts.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>

#include "core/dictionary_builder.h"
#include "core/request_merger.h"
#include "core/formats/pprof/otlp_to_pprof.h"
#include "core/formats/pprof/pprof_ids.h"
#include "core/formats/pprof/pprof_to_otlp.h"
#include "tests/core/formats/pprof/test_profiles.h"

namespace proflow::pprof {
namespace {

using testdata::addString;

void addLabel(Profile* p, perftools::profiles::Sample* s, std::string_view key, std::string_view str) {
  auto* l = s->add_label();
  l->set_key(addString(p, key));
  l->set_str(addString(p, str));
}
void addNum(Profile* p, perftools::profiles::Sample* s, std::string_view key, int64_t v, std::string_view unit) {
  auto* l = s->add_label();
  l->set_key(addString(p, key));
  l->set_num(v);
  if (!unit.empty()) l->set_num_unit(addString(p, unit));
}

// Every feature at once.
Profile richProfile() {
  Profile p = testdata::smallProfile();
  p.set_default_sample_type(addString(&p, "cpu"));
  p.add_comment(addString(&p, "first comment"));
  p.add_comment(addString(&p, "second comment"));
  p.set_drop_frames(addString(&p, "runtime\\..*"));
  p.set_keep_frames(addString(&p, "runtime\\.main"));
  p.set_doc_url(addString(&p, "https://example.com/doc"));
  p.set_time_nanos(1700000000123456789);
  p.set_duration_nanos(10000000000);
  p.mutable_period_type()->set_type(addString(&p, "cpu"));
  p.mutable_period_type()->set_unit(addString(&p, "nanoseconds"));
  p.set_period(10000000);
  auto* m0 = p.mutable_mapping(0);
  m0->set_build_id(addString(&p, "7e9a1c2f33c4b1d0"));
  m0->set_has_functions(true);
  m0->set_has_line_numbers(true);
  m0->set_file_offset(0x1000);
  auto* m = p.add_mapping();
  m->set_id(7);
  m->set_memory_start(0x7f0000);
  m->set_memory_limit(0x7f8000);
  m->set_filename(addString(&p, "/lib/go.so"));
  m->set_build_id(addString(&p, "aaa/bbb/ccc/ddd"));
  m->set_has_filenames(true);
  m->set_has_inline_frames(true);
  auto* vdso = p.add_mapping();  // listed by the producer, used by no location
  vdso->set_id(9);
  vdso->set_memory_start(0x7fff0000);
  vdso->set_memory_limit(0x7fff2000);
  vdso->set_filename(addString(&p, "[vdso]"));
  vdso->set_build_id(addString(&p, "0123abcd"));
  vdso->set_has_functions(true);
  auto* f = p.add_function();
  f->set_id(3);
  f->set_name(addString(&p, "inlined"));
  f->set_system_name(addString(&p, "_Z7inlinedv"));
  f->set_filename(addString(&p, "lib.cc"));
  f->set_start_line(40);
  auto* l = p.add_location();
  l->set_id(3);
  l->set_mapping_id(7);
  l->set_address(0x7f0010);
  l->set_is_folded(true);
  auto* ln = l->add_line();
  ln->set_function_id(3);
  ln->set_line(42);
  ln->set_column(7);
  ln = l->add_line();
  ln->set_function_id(2);
  ln->set_line(12);
  auto* s0 = p.mutable_sample(0);
  s0->add_location_id(3);
  addLabel(&p, s0, "span_id", "00000000000000ab");
  addLabel(&p, s0, "trace_id", "0000000000000000000000000000cdef");
  addLabel(&p, s0, "span id", "777");  // Datadog's key loses to span_id whatever the order
  addNum(&p, s0, "bytes", 512, "");
  addNum(&p, s0, "alloc", 3, "kilobytes");
  auto* s1 = p.mutable_sample(1);
  addNum(&p, s1, "span id", 1234, "");  // Datadog, numeric
  addLabel(&p, s1, "local root span id", "99");
  addLabel(&p, s1, "trace endpoint", "GET /x");
  addNum(&p, s1, kTimestampLabel, 1700000000500000000, "nanoseconds");
  auto* s2 = p.add_sample();  // a third sample with a repeated key and no location
  s2->add_value(0);
  s2->add_value(0);
  addLabel(&p, s2, "k", "a");
  addLabel(&p, s2, "k", "b");
  return p;
}

// Canonical text of a pprof with ids resolved, in sample order; covers every field.
std::string describe(const Profile& p) {
  auto S = [&](int64_t i) { return p.string_table(static_cast<int>(i)); };
  std::map<uint64_t, std::string> maps, funcs, locs;
  for (const auto& m : p.mapping())
    maps[m.id()] = std::to_string(m.memory_start()) + "-" + std::to_string(m.memory_limit()) + "@" +
                   std::to_string(m.file_offset()) + " " + S(m.filename()) + " bid=" + S(m.build_id()) + " " +
                   std::to_string(m.has_functions()) + std::to_string(m.has_filenames()) +
                   std::to_string(m.has_line_numbers()) + std::to_string(m.has_inline_frames());
  for (const auto& f : p.function())
    funcs[f.id()] = S(f.name()) + "|" + S(f.system_name()) + "|" + S(f.filename()) + "|" + std::to_string(f.start_line());
  for (const auto& l : p.location()) {
    std::string d = std::to_string(l.address()) + " m=" + (l.mapping_id() ? maps[l.mapping_id()] : "-") +
                    (l.is_folded() ? " folded" : "");
    for (const auto& ln : l.line())
      d += " [" + (ln.function_id() ? funcs[ln.function_id()] : "-") + ":" + std::to_string(ln.line()) + ":" +
           std::to_string(ln.column()) + "]";
    locs[l.id()] = d;
  }
  std::ostringstream o;
  for (const auto& st : p.sample_type()) o << "type " << S(st.type()) << "/" << S(st.unit()) << "\n";
  o << "default " << S(p.default_sample_type()) << "\nperiod " << S(p.period_type().type()) << "/"
    << S(p.period_type().unit()) << " " << p.period() << "\ntime " << p.time_nanos() << " " << p.duration_nanos()
    << "\ndrop " << S(p.drop_frames()) << "\nkeep " << S(p.keep_frames()) << "\ndoc " << S(p.doc_url()) << "\n";
  for (int64_t c : p.comment()) o << "comment " << S(c) << "\n";
  for (const auto& s : p.sample()) {
    o << "sample";
    for (int64_t v : s.value()) o << " " << v;
    o << "\n";
    for (uint64_t id : s.location_id()) o << "  @ " << locs[id] << "\n";
    for (const auto& l : s.label())
      o << "  label " << S(l.key()) << "=" << (l.str() ? "s:" + S(l.str()) : "n:" + std::to_string(l.num())) << " "
        << S(l.num_unit()) << "\n";
  }
  std::vector<std::string> ms;
  for (const auto& [id, d] : maps) ms.push_back(d);
  std::sort(ms.begin(), ms.end());
  for (const auto& m : ms) o << "mapping " << m << "\n";
  return o.str();
}

std::string attrKey(const otlp::Dictionary& d, int32_t i) {
  return std::string(dictString(d, d.attribute_table(i).key_strindex()));
}
const otlp::KeyValueAndUnit* findAttr(const otlp::Dictionary& d, const google::protobuf::RepeatedField<int32_t>& idx,
                                      std::string_view key) {
  for (int32_t i : idx)
    if (attrKey(d, i) == key) return &d.attribute_table(i);
  return nullptr;
}

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
