// Connectors in the graph: built after the pipelines they feed and before the processors of those
// exporting to them, started downstream first and stopped upstream first, counted without component
// code, a refusal downstream returned to the sender; and a reload that keeps, re-points or rebuilds
// them.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/graph/pipeline_graph.h"
#include "tests/core/graph/graph_fixture.h"
#include "tests/support/profile_builder.h"

namespace proflow {
namespace {

using testing::FakeConnector;
using testing::FakeExporter;
using testing::FakeReceiver;
using testing::Journal;

class ConnectorGraphTest : public testing::GraphFixture {
 protected:
  std::unique_ptr<graph::PipelineGraph> build(const config::ServiceConfig& cfg) {
    std::unique_ptr<graph::PipelineGraph> g;
    Status s = graph::PipelineGraph::build(cfg, runtime_, metrics_, &g);
    EXPECT_TRUE(s.isOk()) << s.toString();
    return g;
  }
  static size_t received(const std::string& exporter) { return FakeExporter::find(exporter)->received().size(); }
};

// in -> fake/join -> {a, b}; b -> fake/chain -> c.
constexpr const char* kChain = R"(
receivers: { fake: {} }
processors: { fake/p: {} }
exporters: { fake/a: {}, fake/b: {}, fake/c: {} }
connectors: { fake/join: {}, fake/chain: {} }
service:
  pipelines:
    profiles/in: { receivers: [fake], processors: [fake/p], exporters: [fake/join] }
    profiles/a: { receivers: [fake/join], processors: [fake/p], exporters: [fake/a] }
    profiles/b: { receivers: [fake/join], processors: [fake/p], exporters: [fake/b, fake/chain] }
    profiles/c: { receivers: [fake/chain], processors: [fake/p], exporters: [fake/c] }
)";

TEST_F(ConnectorGraphTest, BuildsStartsAndStopsInDependencyOrder) {
  auto cfg = load(kChain);
  auto g = build(*cfg);
  ASSERT_TRUE(g);
  ASSERT_TRUE(g->start(host_).isOk());
  g->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(1));
  const auto j = Journal::global().entries();
  // A connector starts after every processor of the pipelines it feeds, before the processors feeding it.
  EXPECT_LT(indexOf(j, "start processor/fake/p@profiles/c"), indexOf(j, "start connector/fake/chain"));
  EXPECT_LT(indexOf(j, "start connector/fake/chain"), indexOf(j, "start processor/fake/p@profiles/b"));
  EXPECT_LT(indexOf(j, "start processor/fake/p@profiles/a"), indexOf(j, "start connector/fake/join"));
  EXPECT_LT(indexOf(j, "start processor/fake/p@profiles/b"), indexOf(j, "start connector/fake/join"));
  EXPECT_LT(indexOf(j, "start connector/fake/join"), indexOf(j, "start processor/fake/p@profiles/in"));
  EXPECT_LT(indexOf(j, "start processor/fake/p@profiles/in"), indexOf(j, "start receiver/fake"));
  // Shutdown in reverse: data in flight always has somewhere to go.
  EXPECT_LT(indexOf(j, "shutdown receiver/fake"), indexOf(j, "shutdown processor/fake/p@profiles/in"));
  EXPECT_LT(indexOf(j, "shutdown processor/fake/p@profiles/in"), indexOf(j, "shutdown connector/fake/join"));
  EXPECT_LT(indexOf(j, "shutdown connector/fake/join"), indexOf(j, "shutdown processor/fake/p@profiles/b"));
  EXPECT_LT(indexOf(j, "shutdown connector/fake/chain"), indexOf(j, "shutdown processor/fake/p@profiles/c"));
  EXPECT_LT(indexOf(j, "shutdown processor/fake/p@profiles/c"), indexOf(j, "shutdown exporter/fake/c"));
}

TEST_F(ConnectorGraphTest, DataGoesThroughConnectorsAndIsCounted) {
  auto cfg = load(kChain);
  auto g = build(*cfg);
  ASSERT_TRUE(g->start(host_).isOk());
  ASSERT_TRUE(push("fake").isOk());
  ASSERT_TRUE(push("fake").isOk());
  EXPECT_EQ(received("fake/a"), 2u);
  EXPECT_EQ(received("fake/b"), 2u);
  EXPECT_EQ(received("fake/c"), 2u);
  g->shutdown(std::chrono::steady_clock::now());
  EXPECT_EQ(metrics_.value("proflow_connector_received_batches_total", {{"connector", "fake/join"}}), 2);
  EXPECT_EQ(metrics_.value("proflow_connector_accepted_batches_total", {{"connector", "fake/join"}}), 2);
  // Sent counts each pipeline a batch went to.
  EXPECT_EQ(metrics_.value("proflow_connector_sent_batches_total", {{"connector", "fake/join"}}), 4);
  EXPECT_EQ(metrics_.value("proflow_connector_sent_batches_total", {{"connector", "fake/chain"}}), 2);
}

TEST_F(ConnectorGraphTest, ARefusalDownstreamReachesTheSender) {
  auto cfg = load(R"(
receivers: { fake: {} }
exporters: { fake/full: { status: exhausted } }
connectors: { fake/c: {} }
service:
  pipelines:
    profiles/in: { receivers: [fake], exporters: [fake/c] }
    profiles/out: { receivers: [fake/c], exporters: [fake/full] }
)");
  auto g = build(*cfg);
  ASSERT_TRUE(g->start(host_).isOk());
  const Status s = push("fake");
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted) << s.toString();
  g->shutdown(std::chrono::steady_clock::now());
  // As for a processor: refused coming in, and refused by downstream going out.
  EXPECT_EQ(metrics_.value("proflow_connector_refused_batches_total", {{"connector", "fake/c"}}), 2);
  EXPECT_EQ(metrics_.value("proflow_connector_accepted_batches_total", {{"connector", "fake/c"}}), 0);
  EXPECT_EQ(metrics_.value("proflow_receiver_refused_batches_total", {{"receiver", "fake"}}), 1);
}

TEST_F(ConnectorGraphTest, ReloadKeepsRepointsAndRebuildsConnectors) {
  auto a = load(kChain);
  auto g = build(*a);
  ASSERT_TRUE(g->start(host_).isOk());
  FakeConnector* join = FakeConnector::find("fake/join");
  FakeConnector* chain = FakeConnector::find("fake/chain");
  Journal::global().clear();

  // profiles/a's processor changes (join is kept and re-pointed at its new entry); chain now also
  // feeds a new pipeline d (its routes changed: rebuilt).
  auto b = load(R"(
receivers: { fake: {} }
processors: { fake/p: {}, fake/p2: { value: 2 } }
exporters: { fake/a: {}, fake/b: {}, fake/c: {}, fake/d: {} }
connectors: { fake/join: {}, fake/chain: {} }
service:
  pipelines:
    profiles/in: { receivers: [fake], processors: [fake/p], exporters: [fake/join] }
    profiles/a: { receivers: [fake/join], processors: [fake/p2], exporters: [fake/a] }
    profiles/b: { receivers: [fake/join], processors: [fake/p], exporters: [fake/b, fake/chain] }
    profiles/c: { receivers: [fake/chain], processors: [fake/p], exporters: [fake/c] }
    profiles/d: { receivers: [fake/chain], exporters: [fake/d] }
)");
  const auto diff = graph::diffConfigs(*a, *b);
  EXPECT_EQ(diff.change({ComponentKind::kConnector, {"fake", "join"}, ""}), graph::NodeChange::kKept);
  EXPECT_EQ(diff.change({ComponentKind::kConnector, {"fake", "chain"}, ""}), graph::NodeChange::kChanged);
  auto next = reload(*g, *a, b);
  auto j = Journal::global().entries();
  EXPECT_EQ(count(j, "start connector/fake/join"), 0u);
  EXPECT_EQ(count(j, "shutdown connector/fake/join"), 0u);
  EXPECT_EQ(FakeConnector::find("fake/join"), join);
  EXPECT_NE(FakeConnector::find("fake/chain"), chain);
  EXPECT_LT(indexOf(j, "start connector/fake/chain"), indexOf(j, "shutdown connector/fake/chain"));
  EXPECT_EQ(count(j, "shutdown processor/fake/p@profiles/a"), 1u);

  // The kept connector feeds the new processor of profiles/a; the rebuilt one feeds c and d.
  ASSERT_TRUE(push("fake").isOk());
  EXPECT_EQ(received("fake/a"), 1u);
  EXPECT_EQ(received("fake/c"), 1u);
  EXPECT_EQ(received("fake/d"), 1u);
  EXPECT_EQ(metrics_.value("proflow_processor_received_batches_total",
                           {{"processor", "fake/p2"}, {"pipeline", "profiles/a"}}), 1);

  // Removing the connectors: the pipelines they fed go with them, shut down after the new chain is live.
  Journal::global().clear();
  auto c = load(R"(
receivers: { fake: {} }
exporters: { fake/a: {} }
service: { pipelines: { profiles: { receivers: [fake], exporters: [fake/a] } } }
)");
  auto last = reload(*next, *b, c);
  j = Journal::global().entries();
  EXPECT_EQ(count(j, "shutdown connector/fake/join"), 1u);
  EXPECT_EQ(count(j, "shutdown connector/fake/chain"), 1u);
  EXPECT_LT(indexOf(j, "shutdown connector/fake/join"), indexOf(j, "shutdown processor/fake/p@profiles/b"));
  ASSERT_TRUE(push("fake").isOk());
  EXPECT_EQ(received("fake/a"), 2u);
  last->shutdown(std::chrono::steady_clock::now());
}

}  // namespace
}  // namespace proflow
