// The `connectors:` section and the Collector's graph rules for connectors, checked at load with
// file:line: used on both sides, ids not shared with receivers or exporters, routes the connector's
// own config names, and no cycle.
#include <gtest/gtest.h>

#include "core/config/service_config.h"
#include "tests/support/fake_components.h"

namespace proflow {
namespace {

class ConnectorConfigTest : public ::testing::Test {
 protected:
  void SetUp() override { testing::registerFakes(registry_); }

  std::string load(const std::string& yaml, config::ServiceConfig* out = nullptr) {
    config::ServiceConfig cfg;
    std::string errors;
    Status s = config::loadServiceConfigText(yaml, "cfg.yaml", registry_, out ? out : &cfg, &errors);
    EXPECT_EQ(s.isOk(), errors.empty());
    return errors;
  }

  static std::vector<std::string> names(const std::vector<const config::PipelineConfig*>& ps) {
    std::vector<std::string> out;
    for (const auto* p : ps) out.push_back(p->name);
    return out;
  }

  Registry registry_;
};

TEST_F(ConnectorConfigTest, AConnectorIsAnExporterOfOnePipelineAndAReceiverOfOthers) {
  config::ServiceConfig cfg;
  ASSERT_EQ(load(R"(
receivers: { fake: {} }
exporters: { fake/a: {}, fake/b: {} }
connectors: { fake/join: {} }
service:
  pipelines:
    profiles/b: { receivers: [fake/join], exporters: [fake/b] }
    profiles/in: { receivers: [fake], exporters: [fake/join] }
    profiles/a: { receivers: [fake/join, fake], exporters: [fake/a] }
)",
                 &cfg),
            "");
  ASSERT_EQ(cfg.connectors.count(ComponentId{"fake", "join"}), 1u);
  const auto& in = cfg.pipelines[1];
  EXPECT_TRUE(in.exporters.empty());
  ASSERT_EQ(in.to_connectors.size(), 1u);
  EXPECT_EQ(cfg.pipelines[0].from_connectors.size(), 1u);
  EXPECT_EQ(cfg.pipelines[2].receivers.size(), 1u);
  EXPECT_EQ(cfg.connectorRoutes(ComponentId{"fake", "join"}), (std::set<std::string>{"profiles/a", "profiles/b"}));
  // Downstream first: both fed pipelines before the one exporting to the connector.
  EXPECT_EQ(names(cfg.pipelinesDownstreamFirst()), (std::vector<std::string>{"profiles/b", "profiles/a", "profiles/in"}));
}

TEST_F(ConnectorConfigTest, AConnectorUsedOnOneSideOnlyIsRefusedWhereItIsListed) {
  const std::string errors = load(R"(receivers: { fake: {} }
exporters: { fake: {} }
connectors: { fake/out_only: {}, fake/in_only: {} }
service:
  pipelines:
    profiles/a: { receivers: [fake], exporters: [fake, fake/out_only] }
    profiles/b: { receivers: [fake/in_only], exporters: [fake] }
)");
  EXPECT_NE(errors.find("cfg.yaml:6:56: service.pipelines.profiles/a.exporters: connector 'fake/out_only' is used as "
                        "an exporter but no pipeline lists it as a receiver"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("cfg.yaml:7:31: service.pipelines.profiles/b.receivers: connector 'fake/in_only' is used as "
                        "a receiver but no pipeline lists it as an exporter"),
            std::string::npos)
      << errors;
}

TEST_F(ConnectorConfigTest, CyclesAreRefusedWithTheirPath) {
  const std::string errors = load(R"(receivers: { fake: {} }
exporters: { fake: {} }
connectors: { fake: {}, fake/2: {} }
service:
  pipelines:
    profiles/a: { receivers: [fake, fake/2], exporters: [fake] }
    profiles/b: { receivers: [fake], exporters: [fake/2] }
)");
  // `fake` is both a receiver and a connector: ambiguous; and a -> fake -> b -> fake/2 -> a.
  EXPECT_NE(errors.find("cfg.yaml:3:15: connectors.fake: ambiguous id: 'fake' is both a receiver and a connector"),
            std::string::npos)
      << errors;
  const std::string fixed = load(R"(receivers: { fake: {} }
exporters: { fake: {} }
connectors: { fake/1: {}, fake/2: {} }
service:
  pipelines:
    profiles/a: { receivers: [fake, fake/2], exporters: [fake, fake/1] }
    profiles/b: { receivers: [fake/1], exporters: [fake/2] }
    profiles/self: { receivers: [fake, fake/3], exporters: [fake/3] }
)");
  EXPECT_NE(fixed.find("cfg.yaml:6:5: service.pipelines.profiles/a: pipelines form a cycle through connectors: "
                       "profiles/a -> fake/1 -> profiles/b -> fake/2 -> profiles/a"),
            std::string::npos)
      << fixed;
  EXPECT_NE(fixed.find("receiver 'fake/3' is not defined in the receivers or connectors section"), std::string::npos) << fixed;
  const std::string self = load(R"(receivers: { fake: {} }
connectors: { fake/loop: {} }
service:
  pipelines:
    profiles: { receivers: [fake, fake/loop], exporters: [fake/loop] }
)");
  EXPECT_NE(self.find("cfg.yaml:5:5: service.pipelines.profiles: pipelines form a cycle through connectors: "
                      "profiles -> fake/loop -> profiles"),
            std::string::npos)
      << self;
}

TEST_F(ConnectorConfigTest, TheConnectorChecksItsRoutesAtLoad) {
  const std::string errors = load(R"(receivers: { fake: {} }
exporters: { fake: {} }
connectors:
  fake/route: { label: profiles/nowhere }
service:
  pipelines:
    profiles/in: { receivers: [fake], exporters: [fake/route] }
    profiles/out: { receivers: [fake/route], exporters: [fake] }
)");
  EXPECT_NE(errors.find("cfg.yaml:4:17: connectors.fake/route.label: pipeline 'profiles/nowhere' does not receive "
                        "from this connector"),
            std::string::npos)
      << errors;
}

}  // namespace
}  // namespace proflow
