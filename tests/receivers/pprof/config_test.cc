// YAML decoding and validation of the pprof receiver config, through its factory's default config.
#include <gtest/gtest.h>

#include "core/config/config_loader.h"
#include "receivers/pprof/config.h"
#include "receivers/pprof/factory.h"
#include "receivers/pprof/scraper.h"

namespace proflow::receivers::pprof {
namespace {

// Decodes `yaml` over the factory defaults and validates; returns the formatted errors ("" = valid).
std::string check(const std::string& yaml, PprofReceiverConfig* out = nullptr) {
  config::ConfigErrors errors;
  auto loaded = config::parseYaml(yaml, "test.yaml", errors, [](const std::string&) { return std::nullopt; });
  auto cfg = makePprofReceiverFactory()->createDefaultConfig();
  cfg->decode(loaded.root, "receivers.pprof", errors);
  if (errors.empty()) cfg->validate(errors);
  if (out) *out = cfg->as<PprofReceiverConfig>();
  return errors.format();
}

TEST(PprofConfigTest, DefaultsAndFullScrapeExample) {
  PprofReceiverConfig c;
  ASSERT_EQ(check("{}", &c), "");
  EXPECT_EQ(c.endpoint, "127.0.0.1:4042");
  EXPECT_EQ(c.max_request_body_size.bytes, 64u << 20);
  EXPECT_FALSE(c.scrape);

  ASSERT_EQ(check(R"(
endpoint: ""
attributes: { deployment.environment: prod }
scrape:
  interval: 15s
  targets:
    - endpoint: http://127.0.0.1:6060
      profiles: [cpu, heap, allocs, mutex, block, goroutine, /debug/pprof/fgprof]
      service_name: checkout
      labels: { team: payments }
    - endpoint: 10.0.0.7:6060/app
)",
                  &c),
            "");
  ASSERT_TRUE(c.scrape);
  EXPECT_EQ(c.endpoint, "");
  EXPECT_EQ(c.scrape->cpuSeconds(), 14);                     // interval - 1s
  EXPECT_EQ(c.scrape->effectiveTimeout(), std::chrono::seconds(18));
  EXPECT_EQ(c.scrape->effectiveJitter(), std::chrono::seconds(15));
  EXPECT_EQ(c.scrape->targets[1].profiles.size(), 5u);     // defaults
  EXPECT_EQ(normalizeTargetUrl(c.scrape->targets[1].endpoint), "http://10.0.0.7:6060/app");
}

TEST(PprofConfigTest, ServerLimitsSitNextToEndpointAndAreValidated) {
  PprofReceiverConfig c;
  ASSERT_EQ(check("{}", &c), "");
  EXPECT_EQ(c.server_limits.max_in_flight_bytes.bytes, 512u << 20);
  EXPECT_EQ(c.server_limits.max_connections, 4096);
  ASSERT_EQ(check("{ max_in_flight_bytes: 1GiB, max_connections: 10000, read_header_timeout: 10s, "
                  "read_body_idle_timeout: 20s, read_body_timeout: 2m }",
                  &c),
            "");
  EXPECT_EQ(c.server_limits.max_in_flight_bytes.bytes, 1u << 30);
  EXPECT_EQ(c.server_limits.read_body_timeout.value, std::chrono::minutes(2));
  const std::string errors = check("{ max_request_body_size: 64MiB, max_in_flight_bytes: 16MiB, max_connections: 0 }");
  EXPECT_NE(errors.find("receivers.pprof.max_in_flight_bytes"), std::string::npos) << errors;
  EXPECT_NE(errors.find("at least max_request_body_size"), std::string::npos) << errors;
  EXPECT_NE(errors.find("receivers.pprof.max_connections"), std::string::npos) << errors;
}

TEST(PprofConfigTest, ProfilePathsAndPrecomputedDeltas) {
  EXPECT_EQ(profilePath("cpu", 9), "/debug/pprof/profile?seconds=9");
  EXPECT_EQ(profilePath("allocs", 9), "/debug/pprof/allocs");
  EXPECT_EQ(profilePath("/debug/pprof/delta_heap", 9), "/debug/pprof/delta_heap");
  EXPECT_EQ(profilePath("memory", 9), "");
  EXPECT_FALSE(isPrecomputedDelta("/debug/pprof/profile?seconds=9"));
  EXPECT_FALSE(isPrecomputedDelta("/debug/pprof/heap"));
  EXPECT_TRUE(isPrecomputedDelta("/debug/pprof/heap?seconds=10"));
  EXPECT_TRUE(isPrecomputedDelta("/debug/pprof/delta_mutex"));
}

TEST(PprofConfigTest, CpuSecondsIsCappedAndAtLeastOne) {
  ScrapeConfig s;
  s.interval = std::chrono::seconds(1);
  EXPECT_EQ(s.cpuSeconds(), 1);  // Go treats 0 as 30 s
  s.interval = std::chrono::minutes(5);
  EXPECT_EQ(s.cpuSeconds(), 60);  // max_cpu_duration
  s.timeout = std::chrono::seconds(10);
  EXPECT_EQ(s.cpuSeconds(), 9);  // must finish within the timeout
}

TEST(PprofConfigTest, ErrorsNameTheField) {
  EXPECT_NE(check("endpoint: nonsense").find("receivers.pprof.endpoint"), std::string::npos);
  EXPECT_NE(check("endpoint: \"\"").find("configure scrape targets"), std::string::npos);
  EXPECT_NE(check("scrape: { targets: [] }").find("receivers.pprof.scrape.targets"), std::string::npos);
  const std::string bad = check(R"(
scrape:
  interval: 100ms
  targets:
    - endpoint: ftp://x:1
      profiles: [heap, memory, heap]
    - profiles: [cpu]
)");
  EXPECT_NE(bad.find("scrape.interval"), std::string::npos) << bad;
  EXPECT_NE(bad.find("scheme must be http or https"), std::string::npos) << bad;
  EXPECT_NE(bad.find("unknown profile 'memory'"), std::string::npos) << bad;
  EXPECT_NE(bad.find("lists a profile twice"), std::string::npos) << bad;
  EXPECT_NE(bad.find("scrape.targets[1].endpoint"), std::string::npos) << bad;
  EXPECT_NE(check("scrape: { targets: [{endpoint: 'http://h:1?x=1'}] }").find("query"), std::string::npos);
  EXPECT_NE(check("bogus: 1").find("unknown key 'bogus'"), std::string::npos);
}

}  // namespace
}  // namespace proflow::receivers::pprof
