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

namespace proflow {
namespace {

using testing::CaptureConsumer;

// One resource per tenant, each with `samples` samples in one profile.
Batch tenants(const std::vector<std::string>& ids, int samples = 2) {
  flat::Batch merged;
  flat::Merger merger(&merged);
  for (const auto& id : ids) {
    auto req = testing::makeRequest("svc-" + id, {testing::makeProfile(samples)});
    auto* kv = req.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
    kv->set_key("tenant.id");
    kv->mutable_value()->set_string_value(id);
    Batch one(std::move(req));
    merger.append(one.data());
  }
  return Batch(std::move(merged));
}

std::vector<std::string> tenantsOf(const CaptureConsumer& c) {
  std::vector<std::string> out;
  for (const auto& b : c.batches)
    for (const auto& r : b.data().resources) out.push_back(flat::resourceAttribute(b.data(), r, "tenant.id").value_or("?"));
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
  EXPECT_TRUE(captures_["acme"]->batches[0].sharesRequestWith(same));
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

}  // namespace
}  // namespace proflow
