// Uploads of each profiler family's shape (fixtures from the documented formats) -> OTLP, and the
// hostile ones refused with a message.
#include <gtest/gtest.h>

#include <fstream>

#include "core/flat/flat_batch.h"
#include "exporters/datadog/upload.h"
#include "receivers/datadog/convert.h"
#include "receivers/datadog/intake.h"
#include "tests/core/formats/jfr/wild_recordings.h"
#include "tests/receivers/datadog/fixtures.h"
#include "tests/receivers/datadog/otlp_view.h"
#include "tests/support/flat_request.h"

namespace proflow::receivers::datadog {
namespace {

using namespace testing;

constexpr int64_t kGoTime = 1740823200LL * 1'000'000'000;

Status convert(const std::string& body, otlp::Request* out, const ConvertOptions& options = {},
               const Tags& header_tags = {}) {
  Intake in;
  if (Status s = parseIntake(contentType(), body, &in); !s.isOk()) return s;
  flat::Batch b;
  if (Status s = convertIntake(in, header_tags, options, &b); !s.isOk()) return s;
  *out = ::proflow::testing::requestOf(Batch(std::move(b)));
  return Status::ok();
}

TEST(ConvertTest, GoOlderFormCpuAndHeapGzip) {
  const std::string cpu = gzip(serialize(ddProfile({{"samples", "count"}, {"cpu", "nanoseconds"}}, true, kGoTime)));
  const std::string heap = gzip(serialize(ddProfile({{"alloc_objects", "count"}, {"alloc_space", "bytes"},
                                                     {"inuse_objects", "count"}, {"inuse_space", "bytes"}},
                                                    true, kGoTime)));
  const std::string body = multipart({{"format", "", "", "pprof"},
                                      {"runtime", "", "", "go"},
                                      {"recording-start", "", "", "2025-03-01T10:00:00Z"},
                                      {"recording-end", "", "", "2025-03-01T10:01:00Z"},
                                      {"tags[]", "", "", "service:checkout"},
                                      {"tags[]", "", "", "env:prod"},
                                      {"tags[]", "", "", "version:2.0"},
                                      {"types[0]", "", "", "cpu"},
                                      {"data[0]", "pprof-data", "application/octet-stream", cpu},
                                      {"types[1]", "", "", "heap"},
                                      {"data[1]", "pprof-data", "application/octet-stream", heap}});
  otlp::Request r;
  ASSERT_TRUE(convert(body, &r).isOk());
  ASSERT_EQ(r.resource_profiles_size(), 1);  // both attachments under one resource
  const auto& rp = r.resource_profiles(0);
  EXPECT_EQ(resourceAttr(rp, "service.name"), "checkout");
  EXPECT_EQ(resourceAttr(rp, "deployment.environment.name"), "prod");
  EXPECT_EQ(resourceAttr(rp, "service.version"), "2.0");
  EXPECT_EQ(resourceAttr(rp, "datadog.profiler.family"), "go");
  ASSERT_EQ(rp.scope_profiles_size(), 2);
  EXPECT_EQ(rp.scope_profiles(0).scope().name(), "proflow.receiver.datadog");
  EXPECT_EQ(rp.scope_profiles(0).profiles_size(), 2);
  EXPECT_EQ(rp.scope_profiles(1).profiles_size(), 4);
  EXPECT_EQ(rp.scope_profiles(0).profiles(0).time_unix_nano(), static_cast<uint64_t>(kGoTime));  // Go's own
  const auto names = functionNames(r);
  for (const char* f : {"main.main", "main.work", "main.burn"})
    EXPECT_NE(std::find(names.begin(), names.end(), f), names.end()) << f;
}

// libdatadog (Ruby, Python, .NET, PHP, ddprof): one zstd profile.pprof, numeric span labels.
TEST(ConvertTest, LibdatadogZstdProfileWithSpanLinks) {
  const std::string prof = zstd(serialize(ddProfile({{"wall-time", "nanoseconds"}}, false)));
  const std::string body = multipart({{"event", "event.json", "application/json",
                                       eventJson({"profile.pprof"}, "service:rb,runtime:ruby,runtime-id:r-1", "ruby")},
                                      {"profile.pprof", "profile.pprof", "application/octet-stream", prof}});
  otlp::Request r;
  ASSERT_TRUE(convert(body, &r).isOk());
  const auto& rp = r.resource_profiles(0);
  EXPECT_EQ(resourceAttr(rp, "process.runtime.name"), "ruby");
  EXPECT_EQ(resourceAttr(rp, "service.instance.id"), "r-1");
  const auto& p = rp.scope_profiles(0).profiles(0);
  // No time in the pprof: the upload's window.
  EXPECT_EQ(p.time_unix_nano(), static_cast<uint64_t>(kGoTime + 500'000'000));
  EXPECT_EQ(p.duration_nano(), 60'000'000'000ull);
  ASSERT_EQ(p.samples_size(), 3);
  int linked = 0;
  for (const auto& s : p.samples()) {
    if (s.link_index() == 0) {
      EXPECT_EQ(sampleAttr(r, s, "span id"), "");
      continue;
    }
    ++linked;
    const auto& link = r.dictionary().link_table(s.link_index());
    const std::string span = sampleAttr(r, s, "span id");
    // Span id: the decimal's 8 big-endian bytes; trace id: zeros || local root span id (5678 = 0x162e).
    EXPECT_EQ(hex(link.span_id()), span == "1234" ? "00000000000004d2" : "0000000000000063");
    EXPECT_EQ(hex(link.trace_id()), "0000000000000000000000000000162e");
    EXPECT_EQ(sampleAttr(r, s, "local root span id"), "5678");
    EXPECT_EQ(sampleAttr(r, s, "trace endpoint"), "GET /work");
  }
  EXPECT_EQ(linked, 2);
}

TEST(ConvertTest, TraceIdLabelIsKeptNotDerived) {
  pprof::Profile prof = ddProfile({{"cpu", "nanoseconds"}}, true);
  auto* l = prof.mutable_sample(0)->add_label();
  l->set_key(prof.string_table_size());
  prof.add_string_table("trace id");
  l->set_str(prof.string_table_size());
  prof.add_string_table("0af7651916cd43dd8448eb211c80319c");
  const std::string body = multipart({{"event", "event.json", "", eventJson({"cpu.pprof"}, "service:a")},
                                      {"cpu.pprof", "cpu.pprof", "", gzip(serialize(prof))}});
  otlp::Request r;
  ASSERT_TRUE(convert(body, &r).isOk());
  const auto& s = r.resource_profiles(0).scope_profiles(0).profiles(0).samples(0);
  EXPECT_EQ(hex(r.dictionary().link_table(s.link_index()).trace_id()), "0af7651916cd43dd8448eb211c80319c");
}

// Datadog ids are decimal whatever their length: 16 digits would read as hex to the generic parser.
TEST(ConvertTest, SixteenDigitDecimalSpanIdStaysDecimal) {
  pprof::Profile prof = ddProfile({{"cpu", "nanoseconds"}}, true);
  for (auto& l : *prof.mutable_sample(0)->mutable_label())
    if (prof.string_table(static_cast<int>(l.key())) == "span id") {
      l.set_str(prof.string_table_size());
      prof.add_string_table("1234567890123456");
    }
  const std::string body = multipart({{"event", "event.json", "", eventJson({"cpu.pprof"}, "service:a")},
                                      {"cpu.pprof", "cpu.pprof", "", serialize(prof)}});
  otlp::Request r;
  ASSERT_TRUE(convert(body, &r).isOk());
  const auto& s = r.resource_profiles(0).scope_profiles(0).profiles(0).samples(0);
  EXPECT_EQ(sampleAttr(r, s, "span id"), "1234567890123456");
  EXPECT_EQ(hex(r.dictionary().link_table(s.link_index()).span_id()), "000462d53c8abac0");
}

TEST(ConvertTest, JavaJfrAttachment) {
  const std::string jfr = jfrRecording();
  ASSERT_GT(jfr.size(), 1000u);
  const std::string body = multipart({{"event", "event.json", "application/json",
                                       eventJson({"main.jfr"}, "service:java-app,env:qa,language:jvm", "java")},
                                      {"main", "main.jfr", "application/octet-stream", gzip(jfr)}});
  otlp::Request r;
  Status s = convert(body, &r);
  ASSERT_TRUE(s.isOk()) << s.message();
  ASSERT_EQ(r.resource_profiles_size(), 1);
  const auto& rp = r.resource_profiles(0);
  EXPECT_EQ(resourceAttr(rp, "service.name"), "java-app");
  EXPECT_EQ(resourceAttr(rp, "telemetry.sdk.language"), "java");
  EXPECT_EQ(rp.scope_profiles(0).scope().name(), "proflow.receiver.datadog");
  ASSERT_GT(rp.scope_profiles(0).profiles_size(), 0);
  size_t samples = 0;
  for (const auto& p : rp.scope_profiles(0).profiles()) samples += static_cast<size_t>(p.samples_size());
  EXPECT_GT(samples, 0u);
}

// A JFR attachment's lambda classes (async-profiler's App$$Lambda$70.0x…) are merged unless the
// receiver keeps generated names.
TEST(ConvertTest, JfrGeneratedClassNamesAreMergedUnlessKept) {
  std::ifstream in(proflow::testing::wildRecording("example"), std::ios::binary);
  const std::string jfr_gz((std::istreambuf_iterator<char>(in)), {});
  ASSERT_GT(jfr_gz.size(), 1000u);
  const std::string body = multipart({{"event", "event.json", "application/json",
                                       eventJson({"main.jfr"}, "service:java-app,language:jvm", "java")},
                                      {"main", "main.jfr", "application/octet-stream", jfr_gz}});
  for (bool merge : {true, false}) {
    ConvertOptions options;
    options.merge_generated_names = merge;
    otlp::Request r;
    Status s = convert(body, &r, options);
    ASSERT_TRUE(s.isOk()) << s.message();
    size_t lambdas = 0, per_run = 0;
    for (const std::string& name : functionNames(r)) {
      lambdas += name.find("$$Lambda") != std::string::npos ? 1 : 0;
      per_run += proflow::testing::hasPerRunPart(name) ? 1 : 0;
    }
    EXPECT_GT(lambdas, 0u);
    EXPECT_EQ(per_run == 0, merge) << per_run;
  }
}

TEST(ConvertTest, NonProfileAttachmentsAreSkipped) {
  const std::string body = multipart({{"event", "event.json", "", eventJson({"cpu.pprof", "metrics.json", "go.trace"}, "")},
                                      {"cpu.pprof", "cpu.pprof", "", serialize(ddProfile({{"cpu", "nanoseconds"}}, true))},
                                      {"metrics.json", "metrics.json", "", "[]"},
                                      {"go.trace", "go.trace", "", "binary"}});
  Intake in;
  ASSERT_TRUE(parseIntake(contentType(), body, &in).isOk());
  flat::Batch b;
  ConvertStats stats;
  ASSERT_TRUE(convertIntake(in, {}, {}, &b, &stats).isOk());
  EXPECT_EQ(stats.attachments, 1u);
  EXPECT_EQ(stats.skipped, 2u);
  EXPECT_EQ(stats.derived_trace_ids, 2u);
}

TEST(ConvertTest, HostileAttachmentsAreRefusedWithTheirName) {
  auto refused = [](const std::string& name, const std::string& data, StatusCode code, const std::string& words,
                    const ConvertOptions& options = {}) {
    const std::string body = multipart({{"event", "event.json", "", eventJson({name}, "service:x")},
                                        {name, name, "", data}});
    otlp::Request r;
    Status s = convert(body, &r, options);
    EXPECT_EQ(s.code(), code) << s.message();
    EXPECT_NE(s.message().find(words), std::string::npos) << s.message();
  };
  refused("cpu.pprof", "this is not a profile", StatusCode::kInvalidArgument, "attachment 'cpu.pprof'");
  std::string bad_zstd = zstd(serialize(ddProfile({{"cpu", "nanoseconds"}}, true)));
  bad_zstd.resize(bad_zstd.size() / 2);
  refused("profile.pprof", bad_zstd, StatusCode::kInvalidArgument, "attachment 'profile.pprof'");
  refused("main.jfr", std::string("FLR\0\0\2\0\0", 8) + std::string(100, 'x'), StatusCode::kInvalidArgument,
          "JFR");
  refused("cpu.pprof", "", StatusCode::kInvalidArgument, "empty attachment");
  ConvertOptions small;
  small.limits.max_output_bytes = 1 << 20;
  refused("cpu.pprof", zstd(std::string(8 << 20, '\0')), StatusCode::kPayloadTooLarge, "attachment 'cpu.pprof'",
          small);  // a bomb
  // Every attachment skipped: nothing to decode.
  otlp::Request r;
  Status s = convert(multipart({{"event", "event.json", "", eventJson({"metrics.json"}, "")},
                                {"metrics.json", "metrics.json", "", "{}"}}),
                     &r);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("no profile attachment"), std::string::npos);
}

TEST(ConvertTest, MemoryIsClaimedBeforeDecoding) {
  const std::string body = multipart({{"event", "event.json", "", eventJson({"cpu.pprof"}, "")},
                                      {"cpu.pprof", "cpu.pprof", "", gzip(serialize(ddProfile({{"cpu", "ns"}}, true)))}});
  ConvertOptions o;
  size_t asked = 0;
  o.reserve_memory = [&](size_t bytes) {
    asked = std::max(asked, bytes);
    return Status::exhausted("budget spent");
  };
  otlp::Request r;
  Status s = convert(body, &r, o);
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_GT(asked, 0u);
}

// What proflow's own datadog exporter writes, read back.
TEST(ConvertTest, RoundTripThroughTheDatadogExporter) {
  const std::string body0 = multipart({{"event", "event.json", "", eventJson({"cpu.pprof"}, "service:rt,env:e1,version:9")},
                                       {"cpu.pprof", "cpu.pprof", "", gzip(serialize(ddProfile({{"cpu", "nanoseconds"}}, true, kGoTime)))}});
  Intake in0;
  ASSERT_TRUE(parseIntake(contentType(), body0, &in0).isOk());
  flat::Batch first;
  ASSERT_TRUE(convertIntake(in0, {}, {}, &first).isOk());
  std::vector<exporters::datadog::Upload> uploads;
  ASSERT_TRUE(exporters::datadog::buildUploads(first, {{"team", "core"}}, &uploads).isOk());
  ASSERT_EQ(uploads.size(), 1u);
  std::string ct;
  const std::string body = exporters::datadog::encodeMultipart(uploads[0], &ct);
  Intake in;
  ASSERT_TRUE(parseIntake(ct, body, &in).isOk());
  flat::Batch b;
  ASSERT_TRUE(convertIntake(in, {}, {}, &b).isOk());
  const otlp::Request r = ::proflow::testing::requestOf(Batch(std::move(b)));
  const auto& rp = r.resource_profiles(0);
  EXPECT_EQ(resourceAttr(rp, "service.name"), "rt");
  EXPECT_EQ(resourceAttr(rp, "deployment.environment.name"), "e1");
  EXPECT_EQ(resourceAttr(rp, "service.version"), "9");
  EXPECT_EQ(resourceAttr(rp, "datadog.team"), "core");
  int64_t total = 0;
  for (const auto& s : rp.scope_profiles(0).profiles(0).samples())
    for (int64_t v : s.values()) total += v;
  EXPECT_EQ(total, 100 + 200 + 300);
}

}  // namespace
}  // namespace proflow::receivers::datadog
