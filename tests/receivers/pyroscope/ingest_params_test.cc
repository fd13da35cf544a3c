// Pyroscope query parsing: series names with labels, time units told apart by digits, defaults.
#include <gtest/gtest.h>

#include "core/util/pyroscope_metric.h"
#include "receivers/pyroscope/ingest_params.h"
#include "receivers/pyroscope/profile_types.h"

namespace proflow::receivers::pyroscope {
namespace {

constexpr int64_t kNow = 1'795'987'030'975'000'064;

TEST(SeriesNameTest, AppNameAndLabels) {
  std::string app;
  Labels labels;
  ASSERT_TRUE(parseSeriesName(" my-app.cpu { env = prod , region=eu-west-1,path=/a=b} ", &app, &labels).isOk());
  EXPECT_EQ(app, "my-app.cpu");
  ASSERT_EQ(labels.size(), 3u);
  EXPECT_EQ(labels[0], (std::pair<std::string, std::string>{"env", "prod"}));
  EXPECT_EQ(labels[1], (std::pair<std::string, std::string>{"region", "eu-west-1"}));
  EXPECT_EQ(labels[2], (std::pair<std::string, std::string>{"path", "/a=b"}));  // value runs to ',' or '}'
}

TEST(SeriesNameTest, NoBracesEmptyBracesTrailingCommaReservedAndDuplicates) {
  std::string app;
  Labels labels;
  ASSERT_TRUE(parseSeriesName("svc/api", &app, &labels).isOk());
  EXPECT_EQ(app, "svc/api");
  EXPECT_TRUE(labels.empty());
  ASSERT_TRUE(parseSeriesName("svc{}", &app, &labels).isOk());
  EXPECT_TRUE(labels.empty());
  ASSERT_TRUE(parseSeriesName("svc{a=1,__name__=x,__session_id__=s1,a=2,}", &app, &labels).isOk());
  ASSERT_EQ(labels.size(), 2u);
  EXPECT_EQ(labels[0], (std::pair<std::string, std::string>{"__session_id__", "s1"}));
  EXPECT_EQ(labels[1], (std::pair<std::string, std::string>{"a", "2"}));  // last value wins
}

TEST(SeriesNameTest, MalformedNamesSayWhatIsWrong) {
  std::string app;
  Labels labels;
  struct Case {
    const char* name;
    const char* expect;
  };
  for (const Case& c : {Case{"", "empty"}, Case{"{a=b}", "empty"}, Case{"app{a=b", "missing '}'"},
                        Case{"app{a}", "no '='"}, Case{"app{=b}", "empty key"}, Case{"app{a-b=c}", "label key"},
                        Case{"my app", "application name"}, Case{"app{a=b}x", "after '}'"},
                        Case{"app}", "'}' is not allowed"}, Case{"app{a={b}}", "nested"}, Case{"app\xff", "UTF-8"}}) {
    Status s = parseSeriesName(c.name, &app, &labels);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << c.name;
    EXPECT_NE(s.message().find(c.expect), std::string::npos) << c.name << " -> " << s.message();
  }
}

TEST(IngestTimeTest, UnitsToldApartByDigitCount) {
  int64_t t = 0;
  ASSERT_TRUE(parseIngestTime("1795987030", kNow, &t).isOk());
  EXPECT_EQ(t, 1'795'987'030'000'000'000);  // seconds (pyroscope-java, Node.js)
  ASSERT_TRUE(parseIngestTime("1795987030975", kNow, &t).isOk());
  EXPECT_EQ(t, 1'795'987'030'975'000'000);  // ms
  ASSERT_TRUE(parseIngestTime("1795987030975123", kNow, &t).isOk());
  EXPECT_EQ(t, 1'795'987'030'975'123'000);  // µs
  ASSERT_TRUE(parseIngestTime("1795987030975123456", kNow, &t).isOk());
  EXPECT_EQ(t, 1'795'987'030'975'123'456);  // ns (pyroscope-go)
  ASSERT_TRUE(parseIngestTime("20261129", kNow, &t).isOk());
  EXPECT_EQ(t, 1'795'910'400'000'000'000);  // YYYYMMDD, midnight UTC
  EXPECT_FALSE(parseIngestTime("17959870", kNow, &t).isOk());  // 8 digits: YYYYMMDD, month 98 is invalid
  Status ancient = parseIngestTime("00000630", kNow, &t);       // a real date, but not in 64-bit nanoseconds
  EXPECT_FALSE(ancient.isOk());
  EXPECT_NE(ancient.message().find("out of range"), std::string::npos) << ancient.message();
  EXPECT_FALSE(parseIngestTime("99991231", kNow, &t).isOk());
  ASSERT_TRUE(parseIngestTime("now", kNow, &t).isOk());
  EXPECT_EQ(t, kNow);
  ASSERT_TRUE(parseIngestTime("now-1h", kNow, &t).isOk());
  EXPECT_EQ(t, kNow - 3'600'000'000'000);
  EXPECT_FALSE(parseIngestTime("now+1h", kNow, &t).isOk());
  EXPECT_FALSE(parseIngestTime("12abc", kNow, &t).isOk());
  EXPECT_FALSE(parseIngestTime("999999999999", kNow, &t).isOk());  // 12 digits of seconds overflow ns
}

TEST(IngestParamsTest, DefaultsAndValues) {
  IngestParams p;
  ASSERT_TRUE(parseIngestParams({{"name", "app{k=v}"}}, kNow, &p).isOk());
  EXPECT_EQ(p.from_ns, kNow);
  EXPECT_EQ(p.until_ns, kNow);
  EXPECT_EQ(p.sample_rate, 100);
  EXPECT_EQ(p.spy_name, "unknown");
  EXPECT_EQ(p.units, "samples");
  EXPECT_EQ(p.aggregation, "sum");
  EXPECT_EQ(p.format, "");
  EXPECT_FALSE(p.from_given);
  EXPECT_FALSE(p.sample_rate_given);

  IngestParams q;
  ASSERT_TRUE(parseIngestParams({{"name", "app"}, {"from", "1795987028"}, {"until", "1795987030000"},
                                 {"sampleRate", "250"}, {"spyName", "gospy"}, {"units", "bytes"},
                                 {"aggregationType", "average"}, {"format", "PPROF"}},
                                kNow, &q)
                  .isOk());
  EXPECT_EQ(q.from_ns, 1'795'987'028'000'000'000);
  EXPECT_EQ(q.until_ns, 1'795'987'030'000'000'000);
  EXPECT_EQ(q.sample_rate, 250);
  EXPECT_TRUE(q.sample_rate_given);
  EXPECT_TRUE(q.from_given);
  EXPECT_EQ(q.spy_name, "gospy");
  EXPECT_EQ(q.units, "bytes");
  EXPECT_EQ(q.aggregation, "average");
  EXPECT_EQ(q.format, "pprof");

  IngestParams r;
  ASSERT_TRUE(parseIngestParams({{"name", "app"}, {"sampleRate", "-5"}}, kNow, &r).isOk());
  EXPECT_EQ(r.sample_rate, 100);  // negative -> default, as Pyroscope
  EXPECT_FALSE(r.sample_rate_given);
  EXPECT_EQ(parseIngestParams({}, kNow, &r).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(parseIngestParams({{"name", "app"}, {"from", "yesterday"}}, kNow, &r).code(),
            StatusCode::kInvalidArgument);
}

TEST(ProfileTypesTest, LegacySuffixesAndMetrics) {
  LegacyType t;
  std::string service;
  ASSERT_TRUE(legacyTypeFor("shop.cpu", "samples", &t, &service).isOk());
  EXPECT_EQ(service, "shop");
  EXPECT_EQ(t.sample_type, "cpu");
  EXPECT_TRUE(t.scale_by_rate);
  ASSERT_TRUE(legacyTypeFor("shop", "samples", &t, &service).isOk());
  EXPECT_EQ(service, "shop");
  EXPECT_EQ(t.metric, "process_cpu");
  ASSERT_TRUE(legacyTypeFor("shop", "bytes", &t, &service).isOk());
  EXPECT_EQ(t.metric, "memory");
  ASSERT_TRUE(legacyTypeFor("shop.mutex_duration", "", &t, &service).isOk());
  EXPECT_EQ(t.sample_type, "delay");
  EXPECT_EQ(t.unit, "nanoseconds");
  EXPECT_EQ(legacyTypeFor("shop.weird", "samples", &t, &service).code(), StatusCode::kInvalidArgument);

  EXPECT_EQ(pyroscopeMetricFamily("cpu"), "process_cpu");
  EXPECT_EQ(pyroscopeMetricFamily("wall"), "wall");
  EXPECT_EQ(pyroscopeMetricFamily("inuse_space"), "memory");
  EXPECT_EQ(pyroscopeMetricFamily("mutex_count"), "mutex");
  EXPECT_EQ(pyroscopeMetricFamily("block_duration"), "block");
  EXPECT_EQ(pyroscopeMetricFamily("goroutine"), "goroutines");
  EXPECT_EQ(pyroscopeMetricFamily("samples"), "");
  EXPECT_EQ(pprofUnitFor("lock_nanoseconds"), "nanoseconds");
  EXPECT_EQ(pprofUnitFor("objects"), "count");
}

}  // namespace
}  // namespace proflow::receivers::pyroscope
