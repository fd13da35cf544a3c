// A real Go heap profile, built and written at test time, uploaded the way pyroscope-go does it:
// multipart parts `profile` + `sample_type_config`, from/until in ns, spyName=gospy.
#include <fstream>

#include "core/formats/pprof/pprof_codec.h"
#include "tests/receivers/pyroscope/receiver_harness.h"
#include "tests/support/flat_request.h"
#include "tests/support/go_programs.h"

namespace proflow::receivers::pyroscope::testing {
namespace {

// pyroscope-go's sample_type_config for heap profiles (backends reference §1.4).
constexpr const char* kGoHeapSampleTypes = R"({
  "alloc_objects": {"units": "objects", "cumulative": false},
  "alloc_space": {"units": "bytes", "cumulative": false},
  "inuse_space": {"units": "bytes", "aggregation": "average", "cumulative": false},
  "inuse_objects": {"units": "objects", "aggregation": "average", "cumulative": false}
})";

// Builds and runs testdata/goheap; returns the profile path or fails the test.
std::string goHeapProfile(const proflow::testing::TempDir& dir) {
  std::string out;
  const std::string src = std::string(PROFLOW_SOURCE_DIR) + "/tests/receivers/pyroscope/testdata/goheap";
  const std::string bin = dir.file("goheap"), prof = dir.file("heap.pb.gz");
  const std::string failed = proflow::testing::goBuild(src, bin);
  EXPECT_EQ(failed, "") << "building the Go heap producer failed";
  const int rc = proflow::testing::runCommand({bin, prof}, &out);
  EXPECT_EQ(rc, 0) << out;
  return prof;
}

TEST_F(ReceiverTest, GoHeapProfileUploadedLikePyroscopeGo) {
  const std::string prof = goHeapProfile(dir_);
  ASSERT_FALSE(HasFailure());
  std::ifstream in(prof, std::ios::binary);
  const std::string data((std::istreambuf_iterator<char>(in)), {});
  pprof::Profile go;
  ASSERT_TRUE(pprof::decodeProfile(data, &go).isOk());
  ASSERT_EQ(go.sample_type_size(), 4);

  const std::string cfg = dir_.write("sample_type_config.json", kGoHeapSampleTypes);
  Reply r = post("/ingest?name=go-app%7Bversion%3D1.2%7D&from=1795987020000000000&until=1795987030000000000"
                 "&spyName=gospy&sampleRate=100&units=samples&aggregationType=sum",
                 {"-F", "profile=@" + prof + ";filename=profile.pprof", "-F",
                  "sample_type_config=@" + cfg + ";filename=sample_type_config.json"});
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body, "");
  auto got = batches();
  ASSERT_EQ(got.size(), 1u);
  const auto& req = ::proflow::testing::requestOf(got[0]);
  const auto& rp = req.resource_profiles(0);
  EXPECT_EQ(resourceAttr(rp, "service.name"), "go-app");
  EXPECT_EQ(resourceAttr(rp, "version"), "1.2");
  EXPECT_EQ(resourceAttr(rp, "pyroscope.spy_name"), "gospy");
  const auto& profiles = rp.scope_profiles(0).profiles();
  ASSERT_EQ(profiles.size(), 4);
  const auto& d = req.dictionary();
  for (int i = 0; i < 4; ++i) {
    const std::string type(dictString(d, profiles[i].sample_type().type_strindex()));
    EXPECT_EQ(type, go.string_table(static_cast<int>(go.sample_type(i).type())));
    EXPECT_EQ(profileAttr(req, profiles[i], "pyroscope.profile.name"), "memory");
    EXPECT_EQ(profileAttr(req, profiles[i], "pyroscope.aggregation"), type.rfind("inuse_", 0) == 0 ? "average" : "")
        << type;
    int64_t want = 0, have = 0;
    for (const auto& s : go.sample()) want += s.value(i);
    for (const auto& s : profiles[i].samples())
      for (int64_t v : s.values()) have += v;
    EXPECT_EQ(have, want) << type;
    EXPECT_EQ(profiles[i].time_unix_nano(), static_cast<uint64_t>(go.time_nanos()));  // Go's own time kept
  }
  // 64 allocations of 64 KiB by allocLarge: the alloc_space total covers at least them.
  int64_t alloc_space = 0;
  for (const auto& s : go.sample()) alloc_space += s.value(1);
  EXPECT_GE(alloc_space, 64 * (64 << 10));
}

}  // namespace
}  // namespace proflow::receivers::pyroscope::testing
