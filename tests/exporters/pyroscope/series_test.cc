// The pure OTLP -> Pyroscope encoding: series labels, pprof payloads, push body, /ingest target.
#include <gtest/gtest.h>

#include <regex>

#include "core/flat/flat_attributes.h"
#include "tests/support/flat_request.h"
#include "core/formats/pprof/pprof_codec.h"
#include "exporters/pyroscope/series.h"
#include "tests/exporters/pyroscope/test_profiles.h"
#include "tests/support/profile_builder.h"
#include "tests/support/rule_breaking_attributes.h"

namespace proflow::exporters::pyroscope {
namespace {

using testing::cpuPprof;
using testing::toOtlp;

flat::Batch flatOf(const otlp::Request& r) {
  flat::Batch b;
  EXPECT_TRUE(flat::fromRequest(r, &b).isOk());
  return b;
}

TEST(SeriesTest, LabelsFromResourceAndExternalLabels) {
  const pprof::Profile cpu = cpuPprof();
  otlp::Request req = toOtlp(cpu, {{"service.name", "shop"}, {"k8s.pod.name", "p-1"}, {"pyroscope.spy_name", "gospy"},
                                   {"cluster", "from-resource"}, {"9lives", "x"}, {"__hidden", "y"}});
  std::vector<Series> series;
  ASSERT_TRUE(buildSeries(flatOf(req), {{{"cluster", "eu"}}}, &series).isOk());
  ASSERT_EQ(series.size(), 1u);
  const Labels want = {{"_9lives", "x"},          {"__delta__", "false"},  {"__name__", "process_cpu"},
                       {"cluster", "eu"},         {"k8s_pod_name", "p-1"}, {"pyroscope_spy", "gospy"},
                       {"service_name", "shop"}};
  EXPECT_EQ(series[0].labels, want);
  ASSERT_EQ(series[0].profiles.size(), 1u);
  EXPECT_EQ(series[0].profiles[0].time_ns, cpu.time_nanos());
  EXPECT_EQ(series[0].profiles[0].duration_ns, cpu.duration_nanos());

  // The payload is the same profile again: gzip pprof with both sample types and the same values.
  pprof::Profile back;
  ASSERT_TRUE(pprof::decodeProfile(series[0].profiles[0].raw_profile, &back).isOk());
  EXPECT_EQ(series[0].profiles[0].raw_profile.substr(0, 2), "\x1f\x8b");
  ASSERT_EQ(back.sample_type_size(), 2);
  EXPECT_EQ(back.string_table(back.sample_type(1).type()), "cpu");
  ASSERT_EQ(back.sample_size(), cpu.sample_size());
  for (int i = 0; i < cpu.sample_size(); ++i) EXPECT_EQ(back.sample(i).value(1), cpu.sample(i).value(1));
}

TEST(SeriesTest, ReferenceBasedResourceAttributesAreReadLikeInlineOnes) {
  otlp::Request req = toOtlp(cpuPprof(), {{"service.name", "shop"}, {"k8s.pod.name", "p-1"}});
  proflow::testing::referenceResourceAttributes(&req);
  ASSERT_EQ(req.resource_profiles(0).resource().attributes(0).key(), "");  // only the dictionary has them
  std::vector<Series> series;
  ASSERT_TRUE(buildSeries(flatOf(req), {}, &series).isOk());
  ASSERT_EQ(series.size(), 1u);
  const Labels want = {{"__delta__", "false"}, {"__name__", "process_cpu"}, {"k8s_pod_name", "p-1"},
                       {"service_name", "shop"}};
  EXPECT_EQ(series[0].labels, want);
}

// Labels read a resource's attributes as routing and every other reader does (flat::forEachKeyValue):
// a repeated key by its first value, a key given inline and by key_strindex by the latter.
TEST(SeriesTest, RuleBreakingAttributesAreReadAsEveryReaderReadsThem) {
  otlp::Request req = toOtlp(cpuPprof(), {{"service.name", "shop"}});
  proflow::testing::addRuleBreakingAttributes(&req);
  const flat::Batch b = flatOf(req);
  std::vector<Series> series;
  ASSERT_TRUE(buildSeries(b, {}, &series).isOk());
  ASSERT_EQ(series.size(), 1u);
  const Labels want = {{"__delta__", "false"}, {"__name__", "process_cpu"}, {"region", "eu"},
                       {"service_name", "shop"}, {"tenant", "first"}};
  EXPECT_EQ(series[0].labels, want);
  EXPECT_EQ(flat::resourceAttribute(b, b.resources[0], "tenant"), "first");
}

TEST(SeriesTest, MetricFromAttributeOrSampleTypeAndUnknownService) {
  otlp::Request req = toOtlp(testing::heapPprof(), {});
  std::vector<Series> series;
  ASSERT_TRUE(buildSeries(flatOf(req), {}, &series).isOk());
  ASSERT_EQ(series.size(), 1u);
  auto label = [&](const std::string& k) {
    for (const auto& [n, v] : series[0].labels)
      if (n == k) return v;
    return std::string("<absent>");
  };
  EXPECT_EQ(label("__name__"), "memory");
  EXPECT_EQ(label("service_name"), "unknown_service");

  // The receiver's pyroscope.profile.name attribute wins (Go mutex and block share sample types).
  testing::addProfileAttribute(&req, "pyroscope.profile.name", "mutex");
  testing::addProfileAttribute(&req, "pyroscope.cumulative", "true");
  ASSERT_TRUE(buildSeries(flatOf(req), {}, &series).isOk());
  EXPECT_EQ(label("__name__"), "mutex");
  EXPECT_EQ(label("__delta__"), "<absent>");  // cumulative: let the server difference it
}

TEST(SeriesTest, SameLabelsShareOneSeries) {
  otlp::Request req;
  testing::appendOtlp(&req, cpuPprof(), {{"service.name", "a"}});
  testing::appendOtlp(&req, cpuPprof(), {{"service.name", "a"}});
  std::vector<Series> series;
  ASSERT_TRUE(buildSeries(flatOf(req), {}, &series).isOk());
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].profiles.size(), 2u);

  testing::appendOtlp(&req, cpuPprof(), {{"service.name", "b"}});
  ASSERT_TRUE(buildSeries(flatOf(req), {}, &series).isOk());
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[1].profiles.size(), 1u);
}

TEST(SeriesTest, PushRequestRoundTripsWithUuids) {
  otlp::Request req = toOtlp(cpuPprof(), {{"service.name", "shop"}});
  std::vector<Series> series;
  ASSERT_TRUE(buildSeries(flatOf(req), {}, &series).isOk());
  push::v1::PushRequest pr;
  ASSERT_TRUE(pr.ParseFromString(encodePushRequest(series).SerializeAsString()));
  ASSERT_EQ(pr.series_size(), 1);
  ASSERT_EQ(pr.series(0).samples_size(), 1);
  EXPECT_EQ(pr.series(0).samples(0).raw_profile(), series[0].profiles[0].raw_profile);
  const std::regex uuid("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  EXPECT_TRUE(std::regex_match(pr.series(0).samples(0).id(), uuid)) << pr.series(0).samples(0).id();
  EXPECT_NE(randomUuid(), randomUuid());
  EXPECT_EQ(pr.series(0).labels(0).name(), "__delta__");
}

TEST(SeriesTest, IngestTargetUsesPyroscopeNameSyntax) {
  Series s;
  s.labels = {{"__delta__", "false"}, {"__name__", "process_cpu"}, {"env", "a,b{c}"},
              {"pyroscope_spy", "gospy"}, {"service_name", "my app"}};
  SeriesProfile p;
  p.time_ns = 1'795'987'030'000'000'000;
  p.duration_ns = 10'000'000'000;
  EXPECT_EQ(ingestTarget(s, p),
            "/ingest?name=my_app%7Benv%3Da_b_c_%7D&format=pprof&from=1795987030000000000&until=1795987040000000000"
            "&spyName=gospy");
}

TEST(SeriesTest, AtMostThirtyLabelNamesPerSeries) {
  testing::Attrs attrs = {{"service.name", "big"}};
  for (int i = 0; i < 40; ++i) attrs.emplace_back("attr." + std::to_string(100 + i), "v");
  attrs.emplace_back("long", std::string(3000, 'x'));  // over Pyroscope's value limit: skipped
  otlp::Request req = toOtlp(cpuPprof(), attrs);
  std::vector<Series> series;
  ASSERT_TRUE(buildSeries(flatOf(req), {{{"zone", "z1"}, {"attr_100", "external"}}}, &series).isOk());
  ASSERT_EQ(series.size(), 1u);
  const auto& l = series[0].labels;
  EXPECT_EQ(l.size(), 30u);
  std::map<std::string, std::string> m(l.begin(), l.end());
  EXPECT_EQ(m["service_name"], "big");
  EXPECT_EQ(m["zone"], "z1");
  EXPECT_EQ(m["attr_100"], "external");
  EXPECT_EQ(m.count("__name__"), 1u);
  EXPECT_EQ(m.count("__delta__"), 1u);
  EXPECT_EQ(m.count("attr_101"), 1u);  // resource attributes kept in name order
  EXPECT_EQ(m.count("attr_139"), 0u);
  EXPECT_EQ(m.count("long"), 0u);
}

TEST(SeriesTest, LabelNames) {
  EXPECT_TRUE(isValidLabelName("service_name"));
  EXPECT_FALSE(isValidLabelName("k8s.pod"));
  EXPECT_FALSE(isValidLabelName("1a"));
  EXPECT_FALSE(isValidLabelName(""));
  EXPECT_EQ(sanitizeLabelName("k8s.pod-name"), "k8s_pod_name");
  EXPECT_EQ(sanitizeLabelName("1a"), "_1a");
}

}  // namespace
}  // namespace proflow::exporters::pyroscope
