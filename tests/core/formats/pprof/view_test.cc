// The wire ProfileView (what pprofBytesToFlat reads) against protobuf's own parser: for the same
// bytes, both must accept or refuse, and accepted bytes must convert to the same OTLP request.
#include <gtest/gtest.h>
#include <google/protobuf/util/message_differencer.h>

#include <random>

#include "tests/support/pprof_request.h"
#include "core/formats/pprof/pprof_view.h"
#include "core/formats/varint_bits.h"
#include "tests/core/formats/pprof/conversion_helpers.h"
#include "tests/core/formats/pprof/test_profiles.h"

namespace proflow::pprof {
namespace {

using google::protobuf::util::MessageDifferencer;
using testdata::richProfile;
using testdata::smallProfile;

// The two paths over the same serialized bytes.
struct BothPaths {
  Status protobuf, view;
  otlp::Request from_protobuf, from_view;
};

BothPaths convertBoth(const std::string& raw) {
  BothPaths r;
  Profile p;
  r.protobuf = parseProfile(raw, &p);
  if (r.protobuf) r.protobuf = pprofToOtlp(p, {}, &r.from_protobuf);
  r.view = pprofBytesToOtlp(raw, {}, &r.from_view);
  return r;
}

void expectSameConversion(const std::string& raw) {
  BothPaths r = convertBoth(raw);
  ASSERT_TRUE(r.protobuf.isOk()) << r.protobuf.toString();
  ASSERT_TRUE(r.view.isOk()) << r.view.toString();
  EXPECT_TRUE(MessageDifferencer::Equals(r.from_protobuf, r.from_view))
      << "protobuf:\n" << r.from_protobuf.DebugString() << "\nview:\n" << r.from_view.DebugString();
}

TEST(PprofView, ConvertsLikeTheProtobufPath) {
  expectSameConversion(smallProfile().SerializeAsString());
  expectSameConversion(richProfile().SerializeAsString());
}

// A minimal protobuf writer, to build what protobuf's serializer never emits (unpacked repeated
// scalars, repeated singular fields, unknown fields of every wire type).
class Wire {
 public:
  Wire& varint(uint64_t v) {
    while (v >= 0x80) {
      out_.push_back(static_cast<char>(v | 0x80));
      v >>= 7;
    }
    out_.push_back(static_cast<char>(v));
    return *this;
  }
  Wire& tag(uint32_t field, uint32_t wire_type) { return varint(field << 3 | wire_type); }
  Wire& field(uint32_t f, uint64_t v) { return tag(f, 0).varint(v); }
  Wire& bytes(uint32_t f, const std::string& b) {
    tag(f, 2).varint(b.size());
    out_ += b;
    return *this;
  }
  Wire& fixed64(uint32_t f, uint64_t v) {
    tag(f, 1);
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>(v >> (8 * i)));
    return *this;
  }
  Wire& fixed32(uint32_t f, uint32_t v) {
    tag(f, 5);
    for (int i = 0; i < 4; ++i) out_.push_back(static_cast<char>(v >> (8 * i)));
    return *this;
  }
  Wire& group(uint32_t f, const std::string& inner) {
    tag(f, 3);
    out_ += inner;
    return tag(f, 4);
  }
  const std::string& str() const { return out_; }

 private:
  std::string out_;
};

std::string valueType(uint64_t type, uint64_t unit) { return Wire().field(1, type).field(2, unit).str(); }

// Strings: 0 "", 1 samples, 2 count, 3 main, 4 /bin/app, 5 k, 6 v, 7 ms.
std::string unusualProfile() {
  Wire w;
  for (const char* s : {"", "samples", "count", "main", "/bin/app", "k", "v", "ms"}) w.bytes(6, s);
  w.bytes(1, valueType(1, 2));
  w.bytes(3, Wire().field(1, 1).field(2, 0x1000).field(3, 0x2000).field(5, 4).field(7, 1).str());
  w.bytes(5, Wire().field(1, 1).field(2, 3).field(4, 4).field(5, 12).str());
  // Location with two lines, a field of an unknown number and is_folded.
  w.bytes(4, Wire()
                 .field(1, 1)
                 .field(2, 1)
                 .field(3, 0x1234)
                 .bytes(4, Wire().field(1, 1).field(2, 10).str())
                 .bytes(4, Wire().field(1, 1).field(2, 20).field(3, 5).str())
                 .field(42, 7)
                 .field(5, 1)
                 .str());
  w.bytes(4, Wire().field(1, 2).field(3, 0x5678).str());
  // Sample: unpacked location ids, packed then unpacked values, a string and a numeric label.
  w.bytes(2, Wire()
                 .field(1, 1)
                 .field(1, 2)
                 .bytes(2, Wire().varint(3).str())
                 .bytes(3, Wire().field(1, 5).field(2, 6).str())
                 .bytes(3, Wire().field(1, 5).field(3, 250).field(4, 7).str())
                 .str());
  // Sample: packed ids and an unknown bytes field.
  w.bytes(2, Wire().bytes(1, Wire().varint(2).varint(1).str()).field(2, 9).bytes(77, "junk").str());
  // Singular fields twice (the last wins), one with a mismatched wire type (ignored).
  w.field(9, 111).field(9, 222).fixed64(9, 999);
  w.field(12, 10);
  // period_type twice: the two occurrences merge.
  w.bytes(11, Wire().field(1, 1).str()).bytes(11, Wire().field(2, 2).str());
  // Comments packed and unpacked; unknown fields of every wire type.
  w.bytes(13, Wire().varint(3).varint(4).str()).field(13, 5);
  w.fixed32(100, 1).fixed64(101, 2).group(102, Wire().field(1, 3).str()).bytes(103, "x").field(104, 4);
  return w.str();
}

TEST(PprofView, ReadsEveryWireFormProtobufAccepts) {
  const std::string raw = unusualProfile();
  expectSameConversion(raw);

  ProfileView v;
  ASSERT_TRUE(parseProfileView(raw, &v).isOk());
  ASSERT_TRUE(validateProfile(v).isOk());
  EXPECT_EQ(v.time_nanos(), 222);  // last varint; the fixed64 occurrence has the wrong wire type
  EXPECT_TRUE(v.has_period_type());
  EXPECT_EQ(v.period_type().type(), 1);
  EXPECT_EQ(v.period_type().unit(), 2);
  ASSERT_EQ(v.sample_size(), 2);
  EXPECT_EQ(std::vector<uint64_t>(v.sample(0).location_id().begin(), v.sample(0).location_id().end()),
            (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(std::vector<uint64_t>(v.sample(1).location_id().begin(), v.sample(1).location_id().end()),
            (std::vector<uint64_t>{2, 1}));
  EXPECT_EQ(v.sample(1).value(0), 9);
  ASSERT_EQ(v.sample(0).label_size(), 2);
  EXPECT_EQ(v.sample(0).label(1).num(), 250);
  EXPECT_EQ(v.sample(0).label(1).num_unit(), 7);
  ASSERT_EQ(v.location(0).line_size(), 2);
  EXPECT_EQ(v.location(0).line(1).column(), 5);
  EXPECT_TRUE(v.location(0).is_folded());
  EXPECT_EQ(v.comment(), (std::vector<int64_t>{3, 4, 5}));
  EXPECT_EQ(v.string_table(4), "/bin/app");
}

TEST(PprofView, ErrorsNameWhatAndWhere) {
  ProfileView v;
  std::string raw = Wire().bytes(6, "").bytes(6, "abc").str();
  auto st = parseProfileView(raw.substr(0, raw.size() - 1), &v);  // cut inside the second string
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("length past the end of its message at byte 2"), std::string::npos) << st.message();
  st = parseProfileView(std::string("\x08\xff\xff", 3), &v);
  EXPECT_NE(st.message().find("truncated varint at byte 3"), std::string::npos) << st.message();
  st = parseProfileView(std::string("\x0f", 1), &v);  // field 1, wire type 7
  EXPECT_NE(st.message().find("invalid wire type at byte 0"), std::string::npos) << st.message();
  // The validator is the protobuf path's, with its messages.
  Profile p = smallProfile();
  p.mutable_sample(1)->set_location_id(0, 99);
  const std::string bad = p.SerializeAsString();
  ASSERT_TRUE(parseProfileView(bad, &v).isOk());
  EXPECT_EQ(validateProfile(v).message(), validateProfile(p).message());
  EXPECT_NE(validateProfile(v).message().find("sample 1: location_id 99 not found"), std::string::npos);
}

// Packed runs are decoded from 8-byte loads: every varint length (1..10 bytes) must read as
// protobuf reads it, near the end of the buffer too, and a varint whose continuation bits run past
// its field (into bytes that would end it) must be refused as protobuf refuses it.
TEST(PprofView, PackedVarintsOfEveryLengthAndAtEveryEdge) {
  std::vector<uint64_t> values;
  for (int bits = 0; bits <= 64; ++bits) values.push_back(bits == 64 ? ~0ull : (1ull << bits) - 1 + (bits > 0));
  for (size_t tail = 0; tail < 10; ++tail) {  // values placed ever closer to the buffer's end
    Wire packed;
    for (uint64_t v : values) packed.varint(v);
    for (size_t i = 0; i < tail; ++i) packed.varint(static_cast<uint64_t>(1) << (7 * i));
    Wire sample;
    sample.bytes(1, packed.str());
    const std::string raw = Wire().bytes(2, sample.str()).str();
    ProfileView v;
    ASSERT_TRUE(parseProfileView(raw, &v).isOk());
    Profile p;
    ASSERT_TRUE(p.ParseFromString(raw));
    const auto ids = v.sample(0).location_id();
    ASSERT_EQ(ids.size(), static_cast<size_t>(p.sample(0).location_id_size()));
    for (size_t i = 0; i < ids.size(); ++i)
      EXPECT_EQ(ids[i], p.sample(0).location_id(static_cast<int>(i))) << "tail " << tail << " value " << i;
  }
  // Location ids whose last varint is cut by the field's length, followed by plenty of bytes that
  // would terminate it (the word read sees them, the field does not own them).
  Wire cut;
  cut.varint(300).varint(70000);
  std::string ids = cut.str() + "\x81";  // a continuation byte with nothing after it in this field
  const std::string raw = Wire().bytes(2, Wire().bytes(1, ids).str()).bytes(6, "").bytes(6, "0123456789abcdef").str();
  ProfileView v;
  Profile p;
  EXPECT_FALSE(p.ParseFromString(raw));
  auto st = parseProfileView(raw, &v);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("truncated varint"), std::string::npos) << st.message();
}

// 200 k empty sample types and 200 k empty samples fit in 800 kB: nothing may be sized from their
// product (4e10 values). The profile is refused by validation, cleanly: by the sample type limit, and
// past it by the value count check.
// Ids are stored in 32 bits until one needs more: a profile whose ids above 2^32 appear only after
// small ones must read (and convert) every id as protobuf does, the earlier samples' too.
TEST(PprofView, LocationIdsAbove32BitsAfterSmallOnes) {
  Profile p = richProfile();
  ASSERT_GE(p.location_size(), 2);
  ASSERT_GE(p.sample_size(), 2);
  const uint64_t kHigh = uint64_t{1} << 40;
  auto widen = [&](uint64_t id) { return id == p.location(0).id() ? id : id + kHigh; };
  for (auto& s : *p.mutable_sample())
    for (auto& id : *s.mutable_location_id()) id = widen(id);
  for (int i = 1; i < p.location_size(); ++i) p.mutable_location(i)->set_id(p.location(i).id() + kHigh);
  // The first sample holds only the small id, so the view starts narrow and widens later.
  p.mutable_sample(0)->clear_location_id();
  p.mutable_sample(0)->add_location_id(p.location(0).id());
  const std::string raw = p.SerializeAsString();
  expectSameConversion(raw);

  ProfileView v;
  ASSERT_TRUE(parseProfileView(raw, &v).isOk());
  ASSERT_TRUE(validateProfile(v).isOk());
  ASSERT_EQ(v.sample_size(), p.sample_size());
  for (int i = 0; i < p.sample_size(); ++i) {
    std::vector<uint64_t> by_index, by_each;
    const auto ids = v.sample(i).location_id();
    for (size_t k = 0; k < ids.size(); ++k) by_index.push_back(ids[k]);
    ids.forEach([&](uint64_t id) { by_each.push_back(id); });
    const std::vector<uint64_t> want(p.sample(i).location_id().begin(), p.sample(i).location_id().end());
    EXPECT_EQ(std::vector<uint64_t>(ids.begin(), ids.end()), want) << "sample " << i;
    EXPECT_EQ(by_index, want) << "sample " << i;
    EXPECT_EQ(by_each, want) << "sample " << i;
  }
}

TEST(PprofView, TableSizesComeFromBytesNotFromCounts) {
  Wire w;
  w.bytes(6, "");
  for (int i = 0; i < 200000; ++i) w.bytes(1, "");
  for (int i = 0; i < 200000; ++i) w.bytes(2, "");
  ProfileView v;
  ASSERT_TRUE(parseProfileView(w.str(), &v).isOk());
  EXPECT_EQ(v.sample_type_size(), 200000);
  EXPECT_EQ(v.sample_size(), 200000);
  EXPECT_NE(validateProfile(v).message().find("exceeds max_sample_types 64"), std::string::npos);
  ProfileLimits wide;
  wide.max_sample_types = 1 << 20;
  auto st = validateProfile(v, wide);
  EXPECT_NE(st.message().find("sample 0: has 0 values but there are 200000 sample types"), std::string::npos)
      << st.message();
}

TEST(PprofView, KeysLengthsAndNestedGroupsAtProtobufsLimits) {
  const std::string base = smallProfile().SerializeAsString();
  auto sameVerdict = [](const std::string& raw, const char* what) {
    BothPaths r = convertBoth(raw);
    EXPECT_EQ(r.protobuf.isOk(), r.view.isOk())
        << what << ": protobuf " << r.protobuf.toString() << " / view " << r.view.toString();
    return r.view.isOk();
  };
  // A 5-byte key whose last byte sets bits past 32 (protobuf keeps the low 32: an unknown varint
  // field), and the same key in 6 bytes.
  EXPECT_TRUE(sameVerdict(base + std::string("\xb8\x87\x87\x8c\x72\x00", 6), "5-byte key"));
  EXPECT_FALSE(sameVerdict(base + std::string("\xb8\x87\x87\x8c\x82\x00\x00", 7), "6-byte key"));
  // A length-delimited unknown field of length 0 written in 5 bytes, and in 6.
  EXPECT_TRUE(sameVerdict(base + std::string("\xa2\x06\x80\x80\x80\x80\x00", 7), "5-byte length"));
  EXPECT_FALSE(sameVerdict(base + std::string("\xa2\x06\x80\x80\x80\x80\x80\x00", 8), "6-byte length"));
  // Groups nested around the recursion limit, in the profile and inside its first sample.
  int accepted = 0;
  for (int levels = 96; levels <= 101; ++levels) {
    std::string groups;
    for (int i = 0; i < levels; ++i) groups += "\xab\x06";  // field 101, start group
    for (int i = 0; i < levels; ++i) groups += "\xac\x06";  // field 101, end group
    accepted += sameVerdict(base + groups, "groups in the profile");
    Profile p = smallProfile();
    std::string sample = p.sample(0).SerializeAsString() + groups;
    p.mutable_sample()->DeleteSubrange(0, 1);
    char size[10];
    const std::string key_and_size = "\x12" + std::string(size, formats::putVarint(size, sample.size()));  // sample
    accepted += sameVerdict(key_and_size + sample + p.SerializeAsString(), "groups in a sample");
  }
  EXPECT_GT(accepted, 0);
  EXPECT_LT(accepted, 12);
}

TEST(PprofView, BitFlipsAgreeWithProtobuf) {
  const std::string base = richProfile().SerializeAsString();
  std::mt19937 rng(7);
  int accepted = 0, refused = 0;
  for (int i = 0; i < 4000; ++i) {
    std::string mutated = base;
    for (int k = 0; k < 1 + i % 3; ++k) mutated[rng() % mutated.size()] ^= static_cast<char>(1 << (rng() % 8));
    if (i % 5 == 0) mutated.resize(rng() % mutated.size());
    BothPaths r = convertBoth(mutated);
    ASSERT_EQ(r.protobuf.isOk(), r.view.isOk())
        << "mutation " << i << ": protobuf " << r.protobuf.toString() << " / view " << r.view.toString();
    if (!r.view.isOk()) {
      ++refused;
      continue;
    }
    ++accepted;
    ASSERT_TRUE(MessageDifferencer::Equals(r.from_protobuf, r.from_view)) << "mutation " << i;
  }
  EXPECT_GT(accepted, 100);
  EXPECT_GT(refused, 100);
}

}  // namespace
}  // namespace proflow::pprof
