// Pyroscope in, Pyroscope out: a Node.js SDK body through proflow's receiver conversion and the
// exporter's encoding keeps the series identity Pyroscope would have given it (service, labels,
// spy, metric family) and the profile itself.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "core/model/batch.h"
#include "core/formats/pprof/pprof_codec.h"
#include "exporters/pyroscope/series.h"
#include "receivers/pyroscope/ingest_converter.h"

namespace proflow {
namespace {

std::string readTestdata(const std::string& name) {
  std::ifstream in(std::string(PROFLOW_SOURCE_DIR) + "/tests/receivers/pyroscope/testdata/" + name, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

TEST(PyroscopeRoundTripTest, NodeSdkWallProfileKeepsItsSeries) {
  const std::string body = readTestdata("ingest_wall.pb.gz");
  ASSERT_FALSE(body.empty());
  receivers::pyroscope::IngestParams params;
  ASSERT_TRUE(receivers::pyroscope::parseIngestParams(
                  {{"name", "node-app{env=staging}"}, {"format", "pprof"}, {"spyName", "nodespy"},
                   {"from", "1795987028"}, {"until", "1795987030"}},
                  0, &params)
                  .isOk());
  flat::Batch converted;
  ASSERT_TRUE(receivers::pyroscope::convertIngest(params, "application/octet-stream", body, {}, &converted).isOk());

  std::vector<exporters::pyroscope::Series> series;
  ASSERT_TRUE(exporters::pyroscope::buildSeries(converted, {}, &series).isOk());
  ASSERT_EQ(series.size(), 1u);
  const std::map<std::string, std::string> labels(series[0].labels.begin(), series[0].labels.end());
  const std::map<std::string, std::string> want = {{"__delta__", "false"},     {"__name__", "wall"},
                                                   {"env", "staging"},         {"pyroscope_spy", "nodespy"},
                                                   {"service_name", "node-app"}};
  EXPECT_EQ(labels, want);
  ASSERT_EQ(series[0].profiles.size(), 1u);  // both sample types back in one pprof

  pprof::Profile in, out;
  ASSERT_TRUE(pprof::decodeProfile(body, &in).isOk());
  ASSERT_TRUE(pprof::decodeProfile(series[0].profiles[0].raw_profile, &out).isOk());
  ASSERT_EQ(out.sample_type_size(), in.sample_type_size());
  ASSERT_EQ(out.sample_size(), in.sample_size());
  for (int t = 0; t < in.sample_type_size(); ++t) {
    EXPECT_EQ(out.string_table(out.sample_type(t).type()), in.string_table(in.sample_type(t).type()));
    int64_t a = 0, b = 0;
    for (const auto& s : in.sample()) a += s.value(t);
    for (const auto& s : out.sample()) b += s.value(t);
    EXPECT_EQ(b, a);
  }
  EXPECT_EQ(out.time_nanos(), in.time_nanos());
  EXPECT_EQ(out.period(), in.period());
}

}  // namespace
}  // namespace proflow
