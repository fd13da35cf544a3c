// The routing connector: each resource to the first route whose OTTL condition it matches, else the
// default pipelines, else nowhere; one cut batch per route; refusals returned; routes checked at load.
#include <gtest/gtest.h>

#include <spdlog/spdlog.h>

#include "connectors/routing/factory.h"
#include "core/config/service_config.h"
#include "core/flat/flat_attributes.h"
#include "core/flat/flat_merge.h"
#include "tests/support/fake_components.h"
#include "tests/support/profile_builder.h"
#include "tests/support/stand_ins.h"
#include "tests/support/flat_request.h"

namespace proflow {
namespace {

using testing::CaptureConsumer;

// One resource per tenant (its `key` attribute the id), each with `samples` samples in one profile.
Batch tenants(const std::vector<std::string>& ids, int samples = 2, const std::string& key = "tenant.id") {
  flat::Batch merged;
  flat::Merger merger(&merged);
  for (const auto& id : ids) {
    auto req = testing::makeRequest("svc-" + id, {testing::makeProfile(samples)});
    auto* kv = req.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
    kv->set_key(key);
    kv->mutable_value()->set_string_value(id);
    merger.append(testing::batchOf(req).data());
  }
  return Batch(std::move(merged));
}

std::vector<std::string> tenantsOf(const CaptureConsumer& c, const std::string& key = "tenant.id") {
  std::vector<std::string> out;
  for (const auto& b : c.batches)
    for (const auto& r : b.data().resources) out.push_back(flat::resourceAttribute(b.data(), r, key).value_or("?"));
  return out;
}

class RoutingConnectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::registerFakes(registry_);
    ASSERT_TRUE(registry_.add(connectors::routing::makeRoutingConnectorFactory()).isOk());
  }

  // Loads a config whose pipelines profiles/<name> receive from `routing` and creates the connector
  // with a capture per pipeline.
  std::string load(const std::string& routing_yaml, const std::vector<std::string>& pipelines) {
    std::string yaml = "receivers: { fake: {} }\nexporters: { fake: {} }\nconnectors:\n  routing:\n" + routing_yaml +
                       "\nservice:\n  pipelines:\n    profiles/in: { receivers: [fake], exporters: [routing] }\n";
    for (const auto& p : pipelines) yaml += "    profiles/" + p + ": { receivers: [routing], exporters: [fake] }\n";
    std::string errors;
    if (!config::loadServiceConfigText(yaml, "r.yaml", registry_, &cfg_, &errors).isOk()) return errors;
    ConnectorRoutes routes;
    for (const auto& p : pipelines) {
      captures_[p] = std::make_shared<CaptureConsumer>();
      routes["profiles/" + p] = captures_[p];
    }
    const auto& entry = cfg_.connectors.at(ComponentId{"routing", ""});
    telemetry_ = std::make_unique<telemetry::ComponentTelemetry>(metrics_, ComponentKind::kConnector, "routing");
    CreateSettings settings{{"routing", ""}, ComponentKind::kConnector, spdlog::default_logger(), telemetry_.get(), nullptr};
    connector_ = static_cast<const ConnectorFactory*>(entry.factory)->create(settings, *entry.config, routes);
    return "";
  }
  double routed(const std::string& route) {
    return metrics_.value("proflow_connector_routed_resources_total", {{"connector", "routing"}, {"route", route}});
  }

  Registry registry_;
  config::ServiceConfig cfg_;
  telemetry::MetricsRegistry metrics_;
  std::unique_ptr<telemetry::ComponentTelemetry> telemetry_;
  std::map<std::string, std::shared_ptr<CaptureConsumer>> captures_;
  std::unique_ptr<Connector> connector_;
};

constexpr const char* kTenants = R"(    default_pipelines: [profiles/other]
    table:
      - condition: attributes["tenant.id"] == "acme"
        pipelines: [profiles/acme]
      - statement: route() where attributes["tenant.id"] == "ecorp"
        pipelines: [profiles/ecorp, profiles/audit]
      - condition: attributes["tenant.id"] == "acme" or attributes["tenant.id"] == "ecorp"
        pipelines: [profiles/audit])";

TEST_F(RoutingConnectorTest, EachResourceGoesToTheFirstRouteItMatches) {
  ASSERT_EQ(load(kTenants, {"acme", "ecorp", "audit", "other"}), "");
  ASSERT_TRUE(connector_->consume(tenants({"acme", "ecorp", "initech", "acme2"})).isOk());
  EXPECT_EQ(tenantsOf(*captures_["acme"]), (std::vector<std::string>{"acme"}));
  EXPECT_EQ(tenantsOf(*captures_["ecorp"]), (std::vector<std::string>{"ecorp"}));
  // The third route matches acme and ecorp too, but each took the first route it matched.
  EXPECT_EQ(tenantsOf(*captures_["audit"]), (std::vector<std::string>{"ecorp"}));
  EXPECT_EQ(tenantsOf(*captures_["other"]), (std::vector<std::string>{"initech", "acme2"}));
  // Every cut carries its samples (2 per resource).
  EXPECT_EQ(captures_["other"]->batches[0].counts().samples, 4u);
  EXPECT_EQ(routed("0"), 1);
  EXPECT_EQ(routed("1"), 1);
  EXPECT_EQ(routed("2"), 0);
  EXPECT_EQ(routed("default"), 2);
}

TEST_F(RoutingConnectorTest, ABatchOfOneRouteGoesUncut) {
  ASSERT_EQ(load(kTenants, {"acme", "ecorp", "audit", "other"}), "");
  Batch batch = tenants({"acme", "acme"});
  const Batch same = batch;
  ASSERT_TRUE(connector_->consume(std::move(batch)).isOk());
  ASSERT_EQ(captures_["acme"]->batches.size(), 1u);
  EXPECT_TRUE(captures_["acme"]->batches[0].sharesStateWith(same));
  EXPECT_EQ(captures_["other"]->count(), 0u);
}

TEST_F(RoutingConnectorTest, WithoutDefaultPipelinesUnmatchedResourcesAreDroppedAndCounted) {
  ASSERT_EQ(load(R"(    table:
      - condition: attributes["tenant.id"] == "acme"
        pipelines: [profiles/acme])",
                 {"acme"}),
            "");
  ASSERT_TRUE(connector_->consume(tenants({"acme", "nobody", "nobody2"})).isOk());
  EXPECT_EQ(tenantsOf(*captures_["acme"]), (std::vector<std::string>{"acme"}));
  EXPECT_EQ(routed("unrouted"), 2);
}

TEST_F(RoutingConnectorTest, ARefusalOfOneRouteIsTheSendersAnswerAndOtherRoutesStillGetTheirs) {
  ASSERT_EQ(load(kTenants, {"acme", "ecorp", "audit", "other"}), "");
  captures_["acme"]->answer = Status::exhausted("acme queue full");
  const Status s = connector_->consume(tenants({"acme", "ecorp"}));
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(tenantsOf(*captures_["ecorp"]), (std::vector<std::string>{"ecorp"}));
}

TEST_F(RoutingConnectorTest, BadTablesAreRefusedAtLoadWithLocations) {
  const std::string errors = load(R"(    error_mode: loud
    default_pipelines: [profiles/nowhere]
    table:
      - condition: attributes["tenant.id"] = "acme"
        pipelines: [profiles/acme]
      - statement: keep() where attributes["x"] == "y"
        pipelines: [profiles/acme]
      - condition: attributes["x"] == "y"
        statement: route() where attributes["x"] == "y"
        pipelines: [profiles/acme]
      - condition: attributes["x"] == "y"
        context: span
        pipelines: [profiles/typo])",
                                  {"acme"});
  EXPECT_NE(errors.find("r.yaml:5:5: connectors.routing.error_mode: error_mode must be ignore, silent or propagate"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("r.yaml:8:9: connectors.routing.table[0].condition: invalid OTTL: column"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("connectors.routing.table[1].statement: invalid OTTL: column 1: a routing statement reads"),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("connectors.routing.table[2]: a route needs either condition or statement"), std::string::npos)
      << errors;
  EXPECT_NE(errors.find("connectors.routing.table[3].context: context 'span' is not supported"), std::string::npos)
      << errors;
  // Routes are checked once the rest validated: pipelines that do not receive from the connector.
  const std::string routes = load(R"(    default_pipelines: [profiles/nowhere]
    table:
      - condition: attributes["x"] == "y"
        pipelines: [profiles/acme, profiles/typo])",
                                  {"acme"});
  EXPECT_NE(routes.find("r.yaml:5:5: connectors.routing.default_pipelines: pipeline 'profiles/nowhere' does not list "
                        "this connector as a receiver; pipelines that do: profiles/acme"),
            std::string::npos)
      << routes;
  EXPECT_NE(routes.find("connectors.routing.table[0].pipelines: pipeline 'profiles/typo'"), std::string::npos) << routes;
}

// Configurations from the Collector's routing connector, the `table` and `default_pipelines` as the
// Collector has them; only the pipelines' type differs (`traces/0` there is `profiles/0` here).

// The shape of the Collector's resource_context testdata configs: default pipelines and two routes.
std::string collectorTestdataTable(const std::string& condition0, const std::string& condition1) {
  return "    default_pipelines:\n      - profiles/default\n    table:\n      - condition: " + condition0 +
         "\n        pipelines:\n          - profiles/0\n      - condition: " + condition1 +
         "\n        pipelines:\n          - profiles/1";
}

// Source: opentelemetry-collector-contrib
// connector/routingconnector/testdata/traces/resource_context/each_matches_one/config.yaml
TEST_F(RoutingConnectorTest, CollectorTestdataEachMatchesOne) {
  ASSERT_EQ(load(collectorTestdataTable(R"(attributes["resourceName"] == "resourceB")",
                                        R"(attributes["resourceName"] == "resourceA")"),
                 {"0", "1", "default"}),
            "");
  ASSERT_TRUE(connector_->consume(tenants({"resourceA", "resourceB", "resourceC"}, 2, "resourceName")).isOk());
  EXPECT_EQ(tenantsOf(*captures_["0"], "resourceName"), (std::vector<std::string>{"resourceB"}));
  EXPECT_EQ(tenantsOf(*captures_["1"], "resourceName"), (std::vector<std::string>{"resourceA"}));
  EXPECT_EQ(tenantsOf(*captures_["default"], "resourceName"), (std::vector<std::string>{"resourceC"}));
}

// Source: opentelemetry-collector-contrib
// connector/routingconnector/testdata/traces/resource_context/all_match_first_only/config.yaml:
// every resource matches the first route, so the second one gets nothing.
TEST_F(RoutingConnectorTest, CollectorTestdataAllMatchFirstOnly) {
  ASSERT_EQ(load(collectorTestdataTable(R"(attributes["resourceName"] != nil)",
                                        R"(attributes["resourceName"] == "resourceY")"),
                 {"0", "1", "default"}),
            "");
  ASSERT_TRUE(connector_->consume(tenants({"resourceX", "resourceY"}, 2, "resourceName")).isOk());
  EXPECT_EQ(tenantsOf(*captures_["0"], "resourceName"), (std::vector<std::string>{"resourceX", "resourceY"}));
  EXPECT_EQ(captures_["1"]->count(), 0u);
  EXPECT_EQ(captures_["default"]->count(), 0u);
  // A resource without the attribute is the default pipelines'.
  ASSERT_TRUE(connector_->consume(tenants({"resourceX"}, 2, "otherName")).isOk());
  EXPECT_EQ(captures_["default"]->count(), 1u);
}

// Source: opentelemetry-collector-contrib connector/routingconnector/README.md, "Example with
// default_pipelines" (migrating from match_once), the route per combination of conditions; the
// README's `pipelines` lines are indented one space too far for YAML, here aligned with `condition`.
TEST_F(RoutingConnectorTest, CollectorReadmeRoutePerCombination) {
  ASSERT_EQ(load(R"(    default_pipelines: [ profiles/default ]
    table:
      - condition: attributes["env"] == "prod" and attributes["region"] == "east"
        pipelines: [ profiles/prod, profiles/east ]
      - condition: attributes["env"] == "prod" and attributes["region"] == "west"
        pipelines: [ profiles/prod, profiles/west ]
      - condition: attributes["env"] == "dev" and attributes["region"] == "east"
        pipelines: [ profiles/dev, profiles/east ]
      - condition: attributes["env"] == "dev" and attributes["region"] == "west"
        pipelines: [ profiles/dev, profiles/west ])",
                 {"default", "prod", "dev", "east", "west"}),
            "");
  flat::Batch merged;
  flat::Merger merger(&merged);
  for (const auto& [env, region] : std::vector<std::pair<std::string, std::string>>{
           {"prod", "east"}, {"dev", "west"}, {"prod", "north"}}) {
    auto req = testing::makeRequest("svc-" + env + "-" + region, {testing::makeProfile(2)});
    for (const auto& [k, v] : {std::pair{"env", env}, std::pair{"region", region}}) {
      auto* kv = req.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
      kv->set_key(k);
      kv->mutable_value()->set_string_value(v);
    }
    merger.append(testing::batchOf(req).data());
  }
  ASSERT_TRUE(connector_->consume(Batch(std::move(merged))).isOk());
  // A resource matching a route goes to each of its pipelines.
  EXPECT_EQ(tenantsOf(*captures_["prod"], "region"), (std::vector<std::string>{"east"}));
  EXPECT_EQ(tenantsOf(*captures_["east"], "env"), (std::vector<std::string>{"prod"}));
  EXPECT_EQ(tenantsOf(*captures_["dev"], "region"), (std::vector<std::string>{"west"}));
  EXPECT_EQ(tenantsOf(*captures_["west"], "env"), (std::vector<std::string>{"dev"}));
  EXPECT_EQ(tenantsOf(*captures_["default"], "region"), (std::vector<std::string>{"north"}));
}

}  // namespace
}  // namespace proflow
