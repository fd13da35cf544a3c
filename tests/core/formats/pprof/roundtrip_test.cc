// pprof -> OTLP -> pprof on real Go runtime profiles generated at test time: `pprof -raw` of the
// result must equal that of the input up to ordering and id numbering.
#include <gtest/gtest.h>

#include <memory>

#include "tests/support/pprof_request.h"
#include "tests/core/formats/pprof/go_tools.h"
#include "tests/core/formats/pprof/raw_normalizer.h"
#include "tests/support/machine_permits.h"
#include "tests/support/temp_dir.h"

namespace proflow::pprof {
namespace {

using proflow::testing::TempDir;

class GoRoundTrip : public ::testing::TestWithParam<std::string> {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::make_unique<TempDir>();
    tool_refused_ = proflow::testing::goModulesRefused(proflow::testing::pprofToolModule());
    if (!tool_refused_.empty()) return;
    tool_ = proflow::testing::pprofTool(&setup_error_);
    if (!tool_.empty()) proflow::testing::generateGoProfiles(dir_->path().string(), &setup_error_);
  }
  static void TearDownTestSuite() { dir_.reset(); }

  static std::unique_ptr<TempDir> dir_;
  static std::string tool_;
  static std::string setup_error_;
  static std::string tool_refused_;  // why the pprof tool cannot be had here, if it cannot
};

std::unique_ptr<TempDir> GoRoundTrip::dir_;
std::string GoRoundTrip::tool_;
std::string GoRoundTrip::setup_error_;
std::string GoRoundTrip::tool_refused_;

TEST_P(GoRoundTrip, RawOutputSurvivesOtlpRoundTrip) {
  PROFLOW_SKIP_IF_REFUSED(tool_refused_);
  ASSERT_TRUE(setup_error_.empty()) << setup_error_;
  const std::string kind = GetParam();
  const std::string in_path = dir_->file(kind + ".pb.gz");
  const std::string input = proflow::testing::readFile(in_path);
  ASSERT_FALSE(input.empty()) << in_path;

  Profile original;
  ASSERT_TRUE(decodeProfile(input, &original).isOk());
  ASSERT_GT(original.sample_size(), 0) << kind << " profile has no samples";

  // pprof -> OTLP, through the wire format as a receiver would hand it on.
  otlp::Request req;
  ASSERT_TRUE(pprofBytesToOtlp(input, {}, &req).isOk());
  ASSERT_EQ(req.resource_profiles_size(), 1);
  ASSERT_EQ(req.resource_profiles(0).scope_profiles_size(), 1);
  const auto& scope = req.resource_profiles(0).scope_profiles(0);
  ASSERT_EQ(scope.profiles_size(), original.sample_type_size());
  for (const auto& prof : scope.profiles()) {
    ASSERT_EQ(prof.samples_size(), original.sample_size());
    for (const auto& s : prof.samples()) ASSERT_EQ(s.values_size(), 1);
  }
  otlp::Request wire;
  ASSERT_TRUE(wire.ParseFromString(req.SerializeAsString()));

  // OTLP -> pprof: exactly one pprof again.
  std::vector<PprofFromOtlp> back;
  auto st = otlpToPprof(wire, &back);
  ASSERT_TRUE(st.isOk()) << st.toString();
  ASSERT_EQ(back.size(), 1u);
  ASSERT_TRUE(validateProfile(back[0].profile).isOk());
  std::string encoded;
  ASSERT_TRUE(encodeProfile(back[0].profile, &encoded).isOk());
  const std::string out_path = dir_->write(kind + ".roundtrip.pb.gz", encoded);

  std::string err;
  const std::string raw_in = proflow::testing::pprofRaw(tool_, in_path, &err);
  ASSERT_FALSE(raw_in.empty()) << err;
  const std::string raw_out = proflow::testing::pprofRaw(tool_, out_path, &err);
  ASSERT_FALSE(raw_out.empty()) << err;
  const std::string norm_in = proflow::testing::normalizePprofRaw(raw_in);
  ASSERT_EQ(norm_in.rfind("PARSE ERROR", 0), std::string::npos) << norm_in << "\n" << raw_in;
  EXPECT_EQ(norm_in, proflow::testing::normalizePprofRaw(raw_out));

  // The comparison must be able to fail: one value off by one in the output has to show.
  Profile changed = back[0].profile;
  auto* v = changed.mutable_sample(0)->mutable_value();
  v->Set(v->size() - 1, v->Get(v->size() - 1) + 1);
  ASSERT_TRUE(encodeProfile(changed, &encoded).isOk());
  const std::string raw_changed = proflow::testing::pprofRaw(tool_, dir_->write(kind + ".changed.pb.gz", encoded), &err);
  ASSERT_FALSE(raw_changed.empty()) << err;
  EXPECT_NE(norm_in, proflow::testing::normalizePprofRaw(raw_changed));
}

INSTANTIATE_TEST_SUITE_P(GoRuntime, GoRoundTrip,
                         ::testing::Values("cpu", "heap", "allocs", "mutex", "block", "goroutine"),
                         [](const auto& info) { return info.param; });

// The CPU work of profgen runs under span/trace labels: every labelled sample must carry a Link
// with the parsed ids, and the labels themselves must still be attributes.
TEST(GoCpuLinks, LabelledSamplesGetLinks) {
  TempDir dir;
  std::string err;
  ASSERT_TRUE(proflow::testing::generateGoProfiles(dir.path().string(), &err)) << err;
  otlp::Request req;
  ASSERT_TRUE(pprofBytesToOtlp(proflow::testing::readFile(dir.file("cpu.pb.gz")), {}, &req).isOk());
  const auto& dict = req.dictionary();
  int linked = 0;
  for (const auto& s : req.resource_profiles(0).scope_profiles(0).profiles(0).samples()) {
    if (s.link_index() == 0) continue;
    ++linked;
    const auto& link = dict.link_table(s.link_index());
    ASSERT_EQ(link.span_id().size(), 8u);
    ASSERT_EQ(link.trace_id().size(), 16u);
    // profgen's span_id labels are 0x5a000000 + n in hex.
    EXPECT_EQ(static_cast<unsigned char>(link.span_id()[4]), 0x5a);
    bool has_label = false;
    for (int32_t ai : s.attribute_indices())
      if (dict.string_table(dict.attribute_table(ai).key_strindex()) == "span_id") has_label = true;
    EXPECT_TRUE(has_label);
  }
  EXPECT_GT(linked, 0);
  // The binary's GNU build id reached the mapping attributes.
  bool saw_build_id = false;
  for (const auto& m : dict.mapping_table())
    for (int32_t ai : m.attribute_indices()) {
      const auto& kv = dict.attribute_table(ai);
      if (dict.string_table(kv.key_strindex()) == "process.executable.build_id.gnu")
        saw_build_id |= kv.value().string_value() == proflow::testing::kProfgenBuildId;
    }
  EXPECT_TRUE(saw_build_id);
}

}  // namespace
}  // namespace proflow::pprof
