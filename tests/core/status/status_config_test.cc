// service.telemetry.status: defaults, decoding, and every range error at its file:line.
#include "core/status/status_config.h"

#include <gtest/gtest.h>

#include "core/config/service_config.h"
#include "tests/support/fake_components.h"

namespace proflow {
namespace {

std::string load(const std::string& status, config::ServiceConfig* cfg) {
  Registry registry;
  testing::registerFakes(registry);
  std::string errors;
  (void)config::loadServiceConfigText("receivers: { fake: {} }\nexporters: { fake: {} }\nservice:\n"
                                      "  pipelines: { profiles: { receivers: [fake], exporters: [fake] } }\n"
                                      "  telemetry:\n    status:\n" + status,
                                      "cfg.yaml", registry, cfg, &errors);
  return errors;
}

TEST(StatusConfig, DefaultsAreOnWithSixteenMebibytes) {
  config::StatusConfig d;
  EXPECT_TRUE(d.enabled);
  EXPECT_TRUE(d.flamegraph.enabled);
  EXPECT_EQ(d.flamegraph.max_bytes.bytes, 16u << 20);
  config::ServiceConfig cfg;
  EXPECT_DOUBLE_EQ(d.flamegraph.max_cpu, 0.05);
  EXPECT_EQ(load("      flamegraph: { max_bytes: 1MiB, max_pending_bytes: 8MiB, max_cpu: 0.5 }\n", &cfg), "");
  EXPECT_DOUBLE_EQ(cfg.telemetry.status.flamegraph.max_cpu, 0.5);
  EXPECT_EQ(cfg.telemetry.status.flamegraph.max_bytes.bytes, 1u << 20);
  EXPECT_EQ(cfg.telemetry.status.flamegraph.max_pending_bytes.bytes, 8u << 20);
  EXPECT_EQ(load("      enabled: false\n", &cfg), "");
  EXPECT_FALSE(cfg.telemetry.status.enabled);
}

TEST(StatusConfig, EveryErrorIsListedWithItsLine) {
  config::ServiceConfig cfg;
  const std::string errors = load("      colour: red\n      flamegraph:\n        max_bytes: 1KiB\n"
                                  "        max_pending_bytes: 9GiB\n        max_cpu: 2\n",
                                  &cfg);
  EXPECT_NE(errors.find("cfg.yaml:7:7: service.telemetry.status.colour: unknown key 'colour'"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("cfg.yaml:9:9: service.telemetry.status.flamegraph.max_bytes: must be between 64KiB and 4GiB"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("cfg.yaml:10:9: service.telemetry.status.flamegraph.max_pending_bytes: must be between 1MiB"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("cfg.yaml:11:9: service.telemetry.status.flamegraph.max_cpu: must be in (0, 1]"),
            std::string::npos)
      << errors;
}

}  // namespace
}  // namespace proflow
