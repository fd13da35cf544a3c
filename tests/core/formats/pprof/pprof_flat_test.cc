// pprof -> flat::Batch means what pprof -> otlp::Request means: for every committed pprof fixture and
// option set, flat::toRequest(pprofBytesToFlat(x)) equals pprofBytesToOtlp(x), compared with
// MessageDifferencer field by field, dictionary order included (no re-interning needed).
#include <gtest/gtest.h>
#include <google/protobuf/util/message_differencer.h>

#include <string>
#include <utility>
#include <vector>

#include "core/flat/flat_convert.h"
#include "core/flat/flat_encode.h"
#include "core/formats/pprof/pprof_to_flat.h"
#include "core/formats/pprof/pprof_to_otlp.h"
#include "tests/core/formats/pprof/conversion_helpers.h"
#include "tests/core/formats/pprof/test_profiles.h"
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

}  // namespace
}  // namespace proflow::pprof
