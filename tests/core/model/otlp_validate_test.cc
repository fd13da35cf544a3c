// The receivers' checks (core/flat/flat_validate.cc) on requests the tests build, through the
// request-form validateAndPrune of tests/support/flat_request.h.
#include <gtest/gtest.h>

#include "tests/support/flat_request.h"
#include "tests/support/profile_builder.h"

namespace proflow {
namespace {

otlp::Request twoProfiles() {
  testing::ProfileSpec p;
  p.samples = {{{"a", "main"}, 1}};
  return testing::makeRequest("svc", {p, p});
}

TEST(OtlpValidate, AcceptsConsistentAndEmptyRequests) {
  auto r = twoProfiles();
  auto v = validateAndPrune(&r);
  EXPECT_TRUE(v.request.isOk());
  EXPECT_EQ(v.rejected_profiles, 0);
  otlp::Request empty;
  EXPECT_TRUE(validateAndPrune(&empty).request.isOk());
}

TEST(OtlpValidate, BrokenDictionaryRejectsTheRequest) {
  auto r = twoProfiles();
  r.mutable_dictionary()->mutable_stack_table(1)->add_location_indices(999);
  auto v = validateAndPrune(&r);
  EXPECT_EQ(v.request.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(v.request.message().find("stack_table[1] location index 999 out of range"), std::string::npos)
      << v.request.message();

  auto r2 = twoProfiles();
  r2.mutable_dictionary()->set_string_table(0, "not empty");
  EXPECT_FALSE(validateAndPrune(&r2).request.isOk());
}

TEST(OtlpValidate, InvalidProfileIsRemovedAndCounted) {
  auto r = twoProfiles();
  auto* bad = r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(1);
  bad->mutable_samples(0)->set_stack_index(12345);
  auto v = validateAndPrune(&r);
  EXPECT_TRUE(v.request.isOk());
  EXPECT_EQ(v.rejected_profiles, 1);
  ASSERT_EQ(v.profile_errors.size(), 1u);
  EXPECT_NE(v.profile_errors[0].find("stack_index 12345 out of range"), std::string::npos);
  EXPECT_EQ(r.resource_profiles(0).scope_profiles(0).profiles_size(), 1);
}

TEST(OtlpValidate, ExplainsThePreV110SampleLayout) {
  auto r = twoProfiles();
  auto* s = r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->mutable_samples(0);
  s->clear_values();
  // v1.9 wrote link_index as field 4 (varint); v1.10 readers see an unpacked "values" entry there,
  // and v1.9's attribute_indices (field 3, LEN) becomes an unknown field.
  s->GetReflection()->MutableUnknownFields(s)->AddLengthDelimited(3, std::string("\x01", 1));
  auto v = validateAndPrune(&r);
  ASSERT_EQ(v.rejected_profiles, 1);
  EXPECT_NE(v.profile_errors[0].find("pre-v1.10"), std::string::npos) << v.profile_errors[0];
}

TEST(OtlpValidate, ValuesAndTimestampsMustLineUp) {
  auto r = twoProfiles();
  auto* s = r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->mutable_samples(0);
  s->add_timestamps_unix_nano(1);
  s->add_timestamps_unix_nano(2);  // 1 value, 2 timestamps
  auto v = validateAndPrune(&r);
  EXPECT_EQ(v.rejected_profiles, 1);
}

}  // namespace
}  // namespace proflow
