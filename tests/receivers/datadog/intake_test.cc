// Parsing uploads: both multipart forms, tags, times, and what is refused.
#include <gtest/gtest.h>

#include "receivers/datadog/intake.h"
#include "receivers/datadog/tags.h"
#include "tests/receivers/datadog/fixtures.h"

namespace proflow::receivers::datadog {
namespace {

using namespace testing;

TEST(IntakeTest, Rfc3339) {
  int64_t ns = 0;
  ASSERT_TRUE(parseRfc3339("2025-03-01T10:00:00Z", &ns));
  EXPECT_EQ(ns, 1740823200LL * 1'000'000'000);
  ASSERT_TRUE(parseRfc3339("2025-03-01T10:00:00.123456789Z", &ns));
  EXPECT_EQ(ns, 1740823200LL * 1'000'000'000 + 123456789);
  ASSERT_TRUE(parseRfc3339("2025-03-01T12:00:00.5+02:00", &ns));  // Node's toISOString has ms; offsets too
  EXPECT_EQ(ns, 1740823200LL * 1'000'000'000 + 500'000'000);
  for (const char* bad : {"", "2025-03-01", "2025-03-01T10:00:00", "2025-13-01T10:00:00Z", "2025-03-01T10:00:00.Z",
                          "2025-03-01T10:00:00Zjunk", "1969-12-31T23:59:59Z"})
    EXPECT_FALSE(parseRfc3339(bad, &ns)) << bad;
}

TEST(IntakeTest, TagsSplitAtTheFirstColon) {
  Tags tags;
  splitTags("service:api,env:prod,,host:h:1, runtime-id:abc ,bare", &tags);
  const Tags want = {{"service", "api"}, {"env", "prod"}, {"host", "h:1"}, {"runtime-id", "abc"}, {"bare", ""}};
  EXPECT_EQ(tags, want);
}

TEST(IntakeTest, CurrentFormWithEventJson) {
  const std::string body = multipart({
      {"event", "event.json", "application/json", eventJson({"cpu.pprof", "main.jfr"}, "service:api,env:prod")},
      {"cpu.pprof", "cpu.pprof", "application/octet-stream", "CPU"},
      {"main", "main.jfr", "application/octet-stream", "JFR"},  // Java names the part "main"
  });
  Intake in;
  ASSERT_TRUE(parseIntake(contentType(), body, &in).isOk());
  EXPECT_FALSE(in.legacy);
  EXPECT_EQ(in.family, "go");
  EXPECT_EQ(in.start_ns, 1740823200LL * 1'000'000'000 + 500'000'000);
  EXPECT_EQ(in.end_ns - in.start_ns, 60LL * 1'000'000'000);
  ASSERT_EQ(in.attachments.size(), 2u);
  EXPECT_EQ(in.attachments[0].name, "cpu.pprof");
  EXPECT_EQ(in.attachments[0].data, "CPU");
  EXPECT_EQ(in.attachments[1].name, "main.jfr");
  EXPECT_EQ(in.attachments[1].data, "JFR");
  EXPECT_EQ(in.tags, (Tags{{"service", "api"}, {"env", "prod"}}));
}

TEST(IntakeTest, OlderForm) {
  const std::string body = multipart({
      {"format", "", "", "pprof"},
      {"runtime", "", "", "go"},
      {"recording-start", "", "", "2025-03-01T10:00:00Z"},
      {"recording-end", "", "", "2025-03-01T10:01:00Z"},
      {"tags[]", "", "", "service:legacy"},
      {"tags[]", "", "", "env:staging"},
      {"types[0]", "", "", "cpu"},
      {"data[0]", "pprof-data", "application/octet-stream", "A"},
      {"types[1]", "", "", "heap"},
      {"data[1]", "pprof-data", "application/octet-stream", "B"},
      {"data[auto.pprof]", "auto.pprof", "application/octet-stream", "C"},  // .NET's spelling
  });
  Intake in;
  ASSERT_TRUE(parseIntake(contentType(), body, &in).isOk());
  EXPECT_TRUE(in.legacy);
  EXPECT_EQ(in.family, "go");
  EXPECT_EQ(in.end_ns - in.start_ns, 60LL * 1'000'000'000);
  ASSERT_EQ(in.attachments.size(), 3u);
  EXPECT_EQ(in.attachments[0].name, "cpu");
  EXPECT_EQ(in.attachments[1].name, "heap");
  EXPECT_EQ(in.attachments[2].name, "auto.pprof");
  EXPECT_EQ(in.attachments[2].data, "C");
  EXPECT_EQ(in.tags, (Tags{{"service", "legacy"}, {"env", "staging"}}));
}

TEST(IntakeTest, RefusalsSayWhatIsWrong) {
  Intake in;
  auto refused = [&](const std::string& ct, const std::string& body, const std::string& words) {
    Status s = parseIntake(ct, body, &in);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << words;
    EXPECT_NE(s.message().find(words), std::string::npos) << s.message();
  };
  refused("application/octet-stream", "x", "multipart/form-data");
  const std::string good = multipart({{"event", "event.json", "", eventJson({"cpu.pprof"}, "")},
                                      {"cpu.pprof", "cpu.pprof", "", "x"}});
  refused(contentType(), good.substr(0, good.size() - 10), "closing boundary");  // truncated
  refused(contentType(), multipart({{"cpu.pprof", "cpu.pprof", "", "x"}}), "'event' part");
  refused(contentType(), multipart({{"event", "event.json", "", eventJson({"cpu.pprof", "heap.pprof"}, "")},
                                    {"cpu.pprof", "cpu.pprof", "", "x"}}),
          "attachment 'heap.pprof' listed in event.json has no part");
  refused(contentType(), multipart({{"event", "event.json", "", "{not json"}}), "event.json: invalid JSON: expected a string key at byte 1");
  refused(contentType(), multipart({{"event", "event.json", "", "[]"}}), "event.json is not a JSON object");
  refused(contentType(), multipart({{"event", "event.json", "", "{\"version\":\"4\"}"}}), "'attachments'");
  refused(contentType(), multipart({{"event", "event.json", "", "{\"attachments\":[],\"start\":\"yesterday\"}"}}),
          "not an RFC 3339 time");
  refused(contentType(), multipart({{"format", "", "", "jfr"}, {"data[0]", "x", "", "x"}}), "format 'jfr'");
  std::vector<Part> many;
  for (size_t i = 0; i <= kMaxParts; ++i) many.push_back({"tags[]", "", "", "a:b"});
  refused(contentType(), multipart(many), "more than 64 parts");
}

TEST(IntakeTest, EachPartIsListedOnceAndTagsAreBounded) {
  Intake in;
  auto parse = [&](const std::string& event, const std::vector<Part>& files) {
    std::vector<Part> parts = {{"event", "event.json", "", event}};
    parts.insert(parts.end(), files.begin(), files.end());
    return parseIntake(contentType(), multipart(parts), &in);
  };
  const std::vector<Part> cpu = {{"cpu.pprof", "cpu.pprof", "", "x"}};
  // One part named 1,000 times would be inflated and converted 1,000 times.
  Status s = parse(eventJson(std::vector<std::string>(1000, "cpu.pprof"), ""), cpu);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("lists attachment 'cpu.pprof' more than once"), std::string::npos) << s.message();
  // The same part by its name and by its file name.
  s = parse(eventJson({"main", "main.jfr"}, ""), {{"main", "main.jfr", "", "JFR"}});
  EXPECT_NE(s.message().find("'main' and 'main.jfr', which name the same part"), std::string::npos) << s.message();

  std::string tags;
  for (size_t i = 0; i <= kMaxTags; ++i) tags += "k" + std::to_string(i) + ":v,";
  s = parse(eventJson({"cpu.pprof"}, tags), cpu);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("'tags_profiler' holds 1025 tags; at most 1024"), std::string::npos) << s.message();
  tags.resize(tags.rfind("k1024:"));  // exactly kMaxTags
  EXPECT_TRUE(parse(eventJson({"cpu.pprof"}, tags), cpu).isOk());
  EXPECT_EQ(in.tags.size(), kMaxTags);
}

TEST(TagsTest, SemanticConventions) {
  const Tags profiler = {{"service", "api"},        {"env", "prod"},         {"version", "1.2.3"},
                         {"host", "web-1"},         {"runtime", "nodejs"},   {"runtime_version", "v20.1.0"},
                         {"runtime-id", "a-b-c"},   {"language", "javascript"}, {"process_id", "42"},
                         {"profiler_version", "5"}, {"service", "shadowed"}};
  const Tags headers = {{"host", "agent-host"}, {"default_env", "dev"}, {"container_id", "c0ffee"}};
  const auto attrs = resourceAttributes(profiler, headers, "node");
  auto get = [&](const std::string& k) {
    for (const auto& [key, v] : attrs)
      if (key == k) return v;
    return std::string("<absent>");
  };
  EXPECT_EQ(attrs.front().first, "service.name");
  EXPECT_EQ(get("service.name"), "api");
  EXPECT_EQ(get("deployment.environment.name"), "prod");  // env beats the Agent's default_env
  EXPECT_EQ(get("service.version"), "1.2.3");
  EXPECT_EQ(get("host.name"), "web-1");  // the profiler's tag beats the Agent's
  EXPECT_EQ(get("process.runtime.name"), "nodejs");
  EXPECT_EQ(get("process.runtime.version"), "v20.1.0");
  EXPECT_EQ(get("service.instance.id"), "a-b-c");
  EXPECT_EQ(get("telemetry.sdk.language"), "nodejs");
  EXPECT_EQ(get("process.pid"), "42");
  EXPECT_EQ(get("container.id"), "c0ffee");
  EXPECT_EQ(get("datadog.profiler_version"), "5");
  EXPECT_EQ(get("datadog.profiler.family"), "node");
  EXPECT_EQ(get("datadog.default_env"), "<absent>");

  const auto bare = resourceAttributes({}, {{"default_env", "dev"}}, "");
  ASSERT_EQ(bare.size(), 2u);
  EXPECT_EQ(bare[0], (std::pair<std::string, std::string>{"service.name", "unknown_service"}));
  EXPECT_EQ(bare[1], (std::pair<std::string, std::string>{"deployment.environment.name", "dev"}));
}

}  // namespace
}  // namespace proflow::receivers::datadog
