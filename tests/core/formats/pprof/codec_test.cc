#include <gtest/gtest.h>

#include <random>

#include "core/formats/pprof/pprof_codec.h"
#include "tests/core/formats/pprof/test_profiles.h"

namespace proflow::pprof {
namespace {

using testdata::addString;
using testdata::smallProfile;

std::string serialize(const Profile& p) {
  std::string out;
  EXPECT_TRUE(encodeProfile(p, &out, Encoding::kRaw).isOk());
  return out;
}

TEST(PprofCodec, DecodesEveryEncoding) {
  const Profile p = smallProfile();
  for (auto enc : {Encoding::kGzip, Encoding::kZstd, Encoding::kRaw}) {
    std::string bytes;
    ASSERT_TRUE(encodeProfile(p, &bytes, enc).isOk());
    Profile back;
    auto st = decodeProfile(bytes, &back);
    ASSERT_TRUE(st.isOk()) << st.toString();
    EXPECT_EQ(back.SerializeAsString(), p.SerializeAsString());
  }
  std::string gz;
  ASSERT_TRUE(encodeProfile(p, &gz).isOk());
  EXPECT_EQ(static_cast<unsigned char>(gz[0]), 0x1f);  // gzip is the default, what pprof readers expect
  EXPECT_EQ(static_cast<unsigned char>(gz[1]), 0x8b);
}

Status validate(const Profile& p) { return validateProfile(p); }

void expectInvalid(const Profile& p, const std::string& message) {
  auto st = validate(p);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << message;
  EXPECT_NE(st.message().find(message), std::string::npos) << "got: " << st.message() << "\nwant: " << message;
}

TEST(PprofValidate, AcceptsValidProfile) { EXPECT_TRUE(validate(smallProfile()).isOk()); }

TEST(PprofValidate, StringTable) {
  Profile p = smallProfile();
  p.clear_string_table();
  expectInvalid(p, "string_table is empty");
  p = smallProfile();
  p.set_string_table(0, "x");
  expectInvalid(p, "string_table[0] is not empty");
  p = smallProfile();
  p.mutable_function(1)->set_name(999);
  expectInvalid(p, "function 1 name: string index 999 out of range");
  p = smallProfile();
  p.set_drop_frames(-1);
  expectInvalid(p, "drop_frames: string index -1 out of range");
  p = smallProfile();
  auto* l = p.mutable_sample(1)->add_label();
  l->set_key(addString(&p, "k"));
  l->set_num_unit(500);
  expectInvalid(p, "sample 1 label 0 num_unit: string index 500 out of range");
}

TEST(PprofValidate, Ids) {
  Profile p = smallProfile();
  p.mutable_sample(1)->set_location_id(0, 99);
  expectInvalid(p, "sample 1: location_id 99 not found");
  p = smallProfile();
  p.mutable_location(1)->set_id(1);
  expectInvalid(p, "location 1: duplicate id 1");
  p = smallProfile();
  p.mutable_mapping(0)->set_id(0);
  expectInvalid(p, "mapping 0: id is 0");
  p = smallProfile();
  p.mutable_location(0)->set_mapping_id(7);
  expectInvalid(p, "location 0 (id 1): mapping_id 7 not found");
  p = smallProfile();
  p.mutable_location(1)->mutable_line(0)->set_function_id(1ull << 40);  // sparse id path
  expectInvalid(p, "location 1 (id 2) line 0: function_id 1099511627776 not found");
  p = smallProfile();
  p.mutable_function(0)->set_id(1ull << 50);  // sparse ids are fine when consistent
  p.mutable_location(0)->mutable_line(0)->set_function_id(1ull << 50);
  EXPECT_TRUE(validate(p).isOk());
}

TEST(PprofValidate, ValueCount) {
  Profile p = smallProfile();
  p.mutable_sample(0)->add_value(3);
  expectInvalid(p, "sample 0: has 3 values but there are 2 sample types");
}

TEST(PprofDecode, RejectsGarbageAndEmpty) {
  Profile p;
  EXPECT_EQ(decodeProfile("", &p).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(decodeProfile("this is not a profile at all", &p).code(), StatusCode::kInvalidArgument);
  std::string bad_gzip = "\x1f\x8b\x08\x00garbage";
  auto st = decodeProfile(bad_gzip, &p);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.toString();
}

TEST(PprofDecode, TruncatedInputFailsCleanly) {
  std::string gz;
  Profile big = smallProfile();
  for (int i = 0; i < 200; ++i) *big.add_sample() = big.sample(0);
  ASSERT_TRUE(encodeProfile(big, &gz).isOk());
  const std::string raw = serialize(big);
  for (size_t n = 1; n < gz.size(); ++n) {
    Profile p;
    EXPECT_FALSE(decodeProfile(std::string_view(gz).substr(0, n), &p).isOk()) << "gzip cut at " << n;
  }
  int rejected = 0;
  for (size_t n = 1; n < raw.size(); n += 7) {
    Profile p;
    if (!decodeProfile(std::string_view(raw).substr(0, n), &p).isOk()) ++rejected;
  }
  EXPECT_GT(rejected, 0);
}

TEST(PprofDecode, BitFlipsNeverCrashAndDecodedProfilesAreValid) {
  Profile base = smallProfile();
  addString(&base, "padding string to give flips something to hit");
  const std::string raw = serialize(base);
  std::string gz;
  ASSERT_TRUE(encodeProfile(base, &gz).isOk());
  std::mt19937 rng(42);
  int ok = 0, failed = 0;
  for (const std::string* src : {&raw, static_cast<const std::string*>(&gz)}) {
    for (int i = 0; i < 3000; ++i) {
      std::string mutated = *src;
      for (int k = 0; k < 1 + i % 3; ++k) mutated[rng() % mutated.size()] ^= static_cast<char>(1 << (rng() % 8));
      Profile p;
      if (decodeProfile(mutated, &p).isOk()) {
        ++ok;
        // Whatever got through must satisfy every structural rule.
        EXPECT_TRUE(validateProfile(p).isOk());
      } else {
        ++failed;
      }
    }
  }
  EXPECT_GT(failed, 0);
}

TEST(PprofDecode, SizeAndRatioLimits) {
  Profile p = smallProfile();
  addString(&p, std::string(4 << 20, 'a'));  // compresses ~1000:1
  std::string gz;
  ASSERT_TRUE(encodeProfile(p, &gz).isOk());
  Profile out;
  DecodeOptions small;
  small.limits.max_output_bytes = 1 << 20;
  small.limits.max_inflate_ratio = 1e9;
  EXPECT_EQ(decodeProfile(gz, &out, small).code(), StatusCode::kPayloadTooLarge);
  DecodeOptions ratio;
  ratio.limits.max_inflate_ratio = 50;
  ratio.limits.ratio_floor_bytes = 1 << 16;
  EXPECT_EQ(decodeProfile(gz, &out, ratio).code(), StatusCode::kPayloadTooLarge);
  DecodeOptions raw_cap;  // the cap applies to uncompressed input too
  raw_cap.limits.max_output_bytes = 1 << 20;
  EXPECT_EQ(decodeProfile(serialize(p), &out, raw_cap).code(), StatusCode::kPayloadTooLarge);
  // The default ratio cap (100 above 1 MiB) refuses this bomb-like payload too; a generous cap allows it.
  EXPECT_EQ(decodeProfile(gz, &out).code(), StatusCode::kPayloadTooLarge);
  DecodeOptions generous;
  generous.limits.max_inflate_ratio = 1e9;
  generous.profile_limits.max_string_length = 8 << 20;  // the 4 MiB string
  EXPECT_TRUE(decodeProfile(gz, &out, generous).isOk());
}

TEST(PprofDecode, ValidationCanBeSkipped) {
  Profile p = smallProfile();
  p.mutable_sample(0)->set_location_id(0, 12345);
  const std::string raw = serialize(p);
  Profile out;
  EXPECT_FALSE(decodeProfile(raw, &out).isOk());
  DecodeOptions o;
  o.validate = false;
  EXPECT_TRUE(decodeProfile(raw, &out, o).isOk());
}

}  // namespace
}  // namespace proflow::pprof
