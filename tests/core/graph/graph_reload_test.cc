// PipelineGraph::buildNext + takeOver: kept components keep running (same instance, never
// restarted), changed and removed ones drain after the new chain is live, and the traffic of a kept
// receiver moves to the new chain.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "core/graph/pipeline_graph.h"
#include "tests/core/graph/graph_fixture.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"
#include "tests/support/flat_request.h"

namespace proflow {
namespace {

using testing::FakeExporter;
using testing::FakeReceiver;
using testing::Journal;

class GraphReloadTest : public testing::GraphFixture {
 protected:
  // The graph of `cfg`, built and started.
  std::unique_ptr<graph::PipelineGraph> started(const config::ServiceConfig& cfg) {
    std::unique_ptr<graph::PipelineGraph> g;
    Status s = graph::PipelineGraph::build(cfg, runtime_, metrics_, &g);
    if (s.isOk()) s = g->start(host_);
    EXPECT_TRUE(s.isOk()) << s.toString();
    return g;
  }
  // `yaml` with the exporter's setting changed.
  static std::string changed(std::string yaml) { return yaml.replace(yaml.find("value: 1"), 8, "value: 2"); }
};

constexpr const char* kA = R"(
receivers: { fake: {}, fake/old: {} }
processors: { fake/keep: {}, fake/batch: { value: 1 } }
exporters: { fake/out: {}, fake/gone: {} }
service:
  pipelines:
    profiles: { receivers: [fake], processors: [fake/keep, fake/batch], exporters: [fake/out] }
    profiles/b: { receivers: [fake/old], exporters: [fake/gone] }
)";

constexpr const char* kB = R"(
receivers: { fake: {} }
processors: { fake/keep: {}, fake/batch: { value: 2 }, fake/tag: { mutates: true } }
exporters: { fake/out: {}, fake/added: {} }
service:
  pipelines:
    profiles: { receivers: [fake], processors: [fake/tag, fake/keep, fake/batch], exporters: [fake/out, fake/added] }
)";

TEST_F(GraphReloadTest, KeepsUnchangedComponentsAndMovesTheirTraffic) {
  auto a = load(kA);
  std::unique_ptr<graph::PipelineGraph> g;
  ASSERT_TRUE(graph::PipelineGraph::build(*a, runtime_, metrics_, &g).isOk());
  ASSERT_TRUE(g->start(host_).isOk());
  FakeReceiver* receiver = FakeReceiver::find("fake");
  FakeExporter* out = FakeExporter::find("fake/out");
  ASSERT_TRUE(push("fake").isOk());
  ASSERT_EQ(out->received().size(), 1u);
  Journal::global().clear();

  auto b = load(kB);
  auto next = reload(*g, *a, b);
  const auto j = Journal::global().entries();
  // Kept: never stopped nor started again, the same instances.
  for (const char* e : {"receiver/fake", "exporter/fake/out", "processor/fake/keep@profiles"}) {
    EXPECT_EQ(count(j, std::string("start ") + e), 0u) << e;
    EXPECT_EQ(count(j, std::string("shutdown ") + e), 0u) << e;
  }
  EXPECT_EQ(FakeReceiver::find("fake"), receiver);
  EXPECT_EQ(FakeExporter::find("fake/out"), out);
  // The changed processor: the new instance starts before the old one drains; removed ones drain.
  EXPECT_LT(indexOf(j, "start processor/fake/batch@profiles"), indexOf(j, "shutdown processor/fake/batch@profiles"));
  EXPECT_LT(indexOf(j, "start processor/fake/tag@profiles"), indexOf(j, "shutdown receiver/fake/old"));
  EXPECT_LT(indexOf(j, "start exporter/fake/added"), indexOf(j, "shutdown exporter/fake/gone"));
  EXPECT_EQ(count(j, "shutdown receiver/fake/old"), 1u);
  EXPECT_EQ(count(j, "shutdown exporter/fake/gone"), 1u);

  // The kept receiver now feeds the new chain: the added processor tags, the added exporter gets it.
  ASSERT_TRUE(push("fake").isOk());
  ASSERT_EQ(out->received().size(), 2u);
  EXPECT_EQ(FakeExporter::find("fake/added")->received().size(), 1u);
  const otlp::Request received = ::proflow::testing::requestOf(out->received().back());
  const auto& dict = received.dictionary();
  EXPECT_NE(std::find(dict.string_table().begin(), dict.string_table().end(), "touched_by"), dict.string_table().end());
  // Counters of kept and rebuilt nodes continue (the same series).
  EXPECT_EQ(metrics_.value("proflow_receiver_accepted_batches_total", {{"receiver", "fake"}}), 2);
  EXPECT_EQ(metrics_.value("proflow_processor_received_batches_total",
                           {{"processor", "fake/batch"}, {"pipeline", "profiles"}}), 2);

  // The old graph owns nothing running: destroying it stops nothing.
  Journal::global().clear();
  g.reset();
  EXPECT_TRUE(Journal::global().entries().empty());
  next->shutdown(std::chrono::steady_clock::now());
  EXPECT_EQ(count(Journal::global().entries(), "shutdown receiver/fake"), 1u);
}

TEST_F(GraphReloadTest, ReplacesAChangedExporterBehindTheSameEdge) {
  const std::string before = R"(
receivers: { fake: {} }
processors: { fake/p: {} }
exporters: { fake/out: { value: 1 } }
service: { pipelines: { profiles: { receivers: [fake], processors: [fake/p], exporters: [fake/out] } } }
)";
  auto a = load(before);
  auto g = started(*a);
  FakeExporter* old_out = FakeExporter::find("fake/out");
  Journal::global().clear();
  auto b = load(changed(before));
  auto next = reload(*g, *a, b);
  const auto j = Journal::global().entries();
  // The old exporter drains before its replacement opens (a persistent queue directory is handed over).
  EXPECT_LT(indexOf(j, "shutdown exporter/fake/out"), indexOf(j, "start exporter/fake/out"));
  EXPECT_EQ(count(j, "start processor/fake/p@profiles"), 0u);
  ASSERT_TRUE(push("fake").isOk());
  EXPECT_NE(FakeExporter::find("fake/out"), old_out);
  EXPECT_EQ(FakeExporter::find("fake/out")->received().size(), 1u);
  next->shutdown(std::chrono::steady_clock::now());
}

// A call still inside the exporter at the reload deadline: the old instance is not shut down under
// it and the new one does not start (it would find the queue directory locked); the old one keeps
// serving with its settings, and the next reload, once the call returned, replaces it.
TEST_F(GraphReloadTest, KeepsAnExporterWithACallInsideAtTheDeadline) {
  testing::HoldGate::global().reset();
  const testing::TempDir dir;
  const std::string before = R"(
receivers: { fake: {} }
exporters: { fake/out: { value: 1, hold: true, lock: ")" + dir.file("lock") + R"(" } }
service: { pipelines: { profiles: { receivers: [fake], exporters: [fake/out] } } }
)";
  auto a = load(before);
  auto g = started(*a);
  FakeExporter* old_out = FakeExporter::find("fake/out");
  std::thread held([] { EXPECT_TRUE(push("fake").isOk()); });
  testing::HoldGate::global().waitForCalls(1);
  Journal::global().clear();

  auto b = load(changed(before));
  const auto diff = graph::diffConfigs(*a, *b);
  ASSERT_EQ(diff.change({ComponentKind::kExporter, *ComponentId::parse("fake/out"), ""}), graph::NodeChange::kChanged);
  std::unique_ptr<graph::PipelineGraph> next;
  ASSERT_TRUE(graph::PipelineGraph::buildNext(*b, b, *g, diff, runtime_, metrics_, &next).isOk());
  bool switched = false;
  // The held call never returns before the deadline, whatever the deadline.
  Status s = next->takeOver(*g, host_, std::chrono::steady_clock::now(), &switched);
  EXPECT_TRUE(switched);
  EXPECT_FALSE(s.isOk());
  EXPECT_NE(s.message().find("exporter/fake/out: calls were still in it"), std::string::npos) << s.message();
  const auto j = Journal::global().entries();
  EXPECT_EQ(count(j, "shutdown exporter/fake/out with calls inside"), 0u);
  EXPECT_EQ(count(j, "shutdown exporter/fake/out"), 0u);
  EXPECT_EQ(count(j, "start exporter/fake/out"), 0u);
  const auto* node = next->find({ComponentKind::kExporter, *ComponentId::parse("fake/out"), ""});
  ASSERT_NE(node, nullptr);
  EXPECT_TRUE(node->runs_previous_settings);
  EXPECT_EQ(node->component.get(), static_cast<Component*>(old_out));

  // The call finishes in the old instance, which goes on taking calls.
  testing::HoldGate::global().release();
  held.join();
  g.reset();
  ASSERT_TRUE(push("fake").isOk());
  EXPECT_EQ(old_out->received().size(), 2u);

  // The running config keeps the settings the exporter runs: the same file again replaces it.
  graph::keepPreviousSettings(*next, *a, b.get());
  auto c = load(changed(before));
  Journal::global().clear();
  auto last = reload(*next, *b, c);
  const auto j2 = Journal::global().entries();
  EXPECT_EQ(count(j2, "shutdown exporter/fake/out"), 1u);
  EXPECT_LT(indexOf(j2, "shutdown exporter/fake/out"), indexOf(j2, "start exporter/fake/out"));
  ASSERT_TRUE(push("fake").isOk());
  EXPECT_EQ(FakeExporter::find("fake/out")->received().size(), 1u);
  last->shutdown(std::chrono::steady_clock::now());
}

}  // namespace
}  // namespace proflow
