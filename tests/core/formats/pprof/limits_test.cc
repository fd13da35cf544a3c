// The bounds of ProfileLimits: each one refuses a profile just over it with kPayloadTooLarge naming the
// limit, accepts one exactly at it, and holds on both receive paths (protobuf messages and the wire view).
#include <gtest/gtest.h>

#include <functional>

#include "core/formats/pprof/pprof_codec.h"
#include "tests/support/pprof_request.h"
#include "core/formats/pprof/pprof_view.h"
#include "tests/core/formats/pprof/test_profiles.h"

namespace proflow::pprof {
namespace {

using testdata::addString;
using testdata::smallProfile;

struct LimitCase {
  const char* limit;
  std::function<void(ProfileLimits&)> set;     // limit at what smallProfile() + grow() hold
  std::function<void(Profile&)> grow;          // one over
};

std::string raw(const Profile& p) {
  std::string out;
  EXPECT_TRUE(encodeProfile(p, &out, Encoding::kRaw).isOk());
  return out;
}

const LimitCase kCases[] = {
    {"max_samples", [](ProfileLimits& l) { l.max_samples = 2; },
     [](Profile& p) { *p.add_sample() = p.sample(0); }},
    {"max_sample_types", [](ProfileLimits& l) { l.max_sample_types = 2; },
     [](Profile& p) {
       *p.add_sample_type() = p.sample_type(0);
       for (auto& s : *p.mutable_sample()) s.add_value(1);
     }},
    {"max_labels_per_sample", [](ProfileLimits& l) { l.max_labels_per_sample = 1; },
     [](Profile& p) {
       for (int i = 0; i < 2; ++i) {
         auto* label = p.mutable_sample(1)->add_label();
         label->set_key(addString(&p, "k" + std::to_string(i)));
         label->set_num(i);
       }
     }},
    {"max_stack_depth", [](ProfileLimits& l) { l.max_stack_depth = 2; },
     [](Profile& p) { p.mutable_sample(1)->add_location_id(1); }},
    {"max_string_length", [](ProfileLimits& l) { l.max_string_length = 16; },
     [](Profile& p) { addString(&p, std::string(17, 'x')); }},
};

TEST(PprofLimits, EachLimitRefusesOneOverItAndNamesIt) {
  for (const LimitCase& c : kCases) {
    SCOPED_TRACE(c.limit);
    ProfileLimits limits;
    c.set(limits);
    const Profile at_limit = smallProfile();
    EXPECT_TRUE(validateProfile(at_limit, limits).isOk());
    Profile over = smallProfile();
    c.grow(over);
    EXPECT_TRUE(validateProfile(over).isOk()) << "the defaults take it";

    Status st = validateProfile(over, limits);
    EXPECT_EQ(st.code(), StatusCode::kPayloadTooLarge);
    EXPECT_NE(st.message().find(c.limit), std::string::npos) << st.message();

    const std::string bytes = raw(over);
    ProfileView view;
    ASSERT_TRUE(parseProfileView(bytes, &view).isOk());
    EXPECT_EQ(validateProfile(view, limits).message(), st.message());

    DecodeOptions decode;
    decode.profile_limits = limits;
    Profile decoded;
    EXPECT_EQ(decodeProfile(bytes, &decoded, decode).message(), st.message());
    otlp::Request req;
    EXPECT_EQ(pprofBytesToOtlp(bytes, {}, &req, decode).code(), StatusCode::kPayloadTooLarge);
  }
}

}  // namespace
}  // namespace proflow::pprof
