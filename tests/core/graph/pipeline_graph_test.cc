#include <gtest/gtest.h>

#include <algorithm>

#include "core/graph/pipeline_graph.h"
#include "core/service/service.h"
#include "core/status/batch_tap.h"
#include "tests/core/graph/graph_fixture.h"
#include "tests/support/profile_builder.h"
#include "tests/support/flat_request.h"

namespace proflow {
namespace {

using testing::FakeExporter;
using testing::FakeReceiver;
using testing::Journal;

class PipelineGraphTest : public testing::GraphFixture {
 protected:
  std::unique_ptr<graph::PipelineGraph> build(const std::string& yaml) {
    std::string errors;
    EXPECT_TRUE(config::loadServiceConfigText(yaml, "g.yaml", registry_, &cfg_, &errors).isOk()) << errors;
    std::unique_ptr<graph::PipelineGraph> g;
    Status s = graph::PipelineGraph::build(cfg_, runtime_, metrics_, &g);
    EXPECT_TRUE(s.isOk()) << s.toString();
    return g;
  }

  config::ServiceConfig cfg_;
};

constexpr const char* kTwoPipelines = R"(
receivers: { fake: {}, fake/solo: {} }
processors: { fake/p1: {}, fake/p2: {} }
exporters: { fake/shared: {}, fake/only_b: {} }
service:
  pipelines:
    profiles/a: { receivers: [fake], processors: [fake/p1, fake/p2], exporters: [fake/shared] }
    profiles/b: { receivers: [fake, fake/solo], processors: [fake/p1], exporters: [fake/shared, fake/only_b] }
)";

TEST_F(PipelineGraphTest, SharesReceiversAndExportersAndStartsDownstreamFirst) {
  auto g = build(kTwoPipelines);
  ASSERT_TRUE(g);
  // 2 receivers + 2 exporters shared, processors per pipeline (2 + 1).
  EXPECT_EQ(g->nodes().size(), 7u);
  ASSERT_TRUE(g->start(host_).isOk());
  g->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(1));

  auto j = Journal::global().entries();
  ASSERT_EQ(j.size(), 14u);
  // Start: every exporter before any processor, every processor before any receiver.
  EXPECT_LT(indexOf(j, "start exporter/fake/shared"), indexOf(j, "start processor/fake/p1@profiles/a"));
  EXPECT_LT(indexOf(j, "start exporter/fake/only_b"), indexOf(j, "start processor/fake/p1@profiles/b"));
  // Within a pipeline, the later processor starts first.
  EXPECT_LT(indexOf(j, "start processor/fake/p2@profiles/a"), indexOf(j, "start processor/fake/p1@profiles/a"));
  EXPECT_LT(indexOf(j, "start processor/fake/p1@profiles/a"), indexOf(j, "start receiver/fake"));
  EXPECT_LT(indexOf(j, "start processor/fake/p1@profiles/b"), indexOf(j, "start receiver/fake/solo"));
  // Shutdown: receivers first, exporters last, processors in pipeline order.
  EXPECT_LT(indexOf(j, "shutdown receiver/fake"), indexOf(j, "shutdown processor/fake/p1@profiles/a"));
  EXPECT_LT(indexOf(j, "shutdown processor/fake/p1@profiles/a"), indexOf(j, "shutdown processor/fake/p2@profiles/a"));
  EXPECT_LT(indexOf(j, "shutdown processor/fake/p2@profiles/a"), indexOf(j, "shutdown exporter/fake/shared"));
}

TEST_F(PipelineGraphTest, DataFlowsThroughEveryPipelineOfAReceiver) {
  auto g = build(kTwoPipelines);
  ASSERT_TRUE(g->start(host_).isOk());
  testing::ProfileSpec p;
  p.samples = {{{"f", "main"}, 3}};
  ASSERT_TRUE(FakeReceiver::find("fake")->push(::proflow::testing::batchOf(testing::makeRequest("svc", {p}))).isOk());
  ASSERT_TRUE(FakeReceiver::find("fake/solo")->push(::proflow::testing::batchOf(testing::makeRequest("svc", {p}))).isOk());
  // fake feeds a and b (shared gets 2), solo feeds b only (shared +1, only_b +1).
  EXPECT_EQ(FakeExporter::find("fake/shared")->received().size(), 3u);
  EXPECT_EQ(FakeExporter::find("fake/only_b")->received().size(), 2u);
  g->shutdown(std::chrono::steady_clock::now());

  // Standard counters exist for every instance without component code.
  EXPECT_EQ(metrics_.value("proflow_receiver_accepted_batches_total", {{"receiver", "fake"}}), 1);
  EXPECT_EQ(metrics_.value("proflow_receiver_accepted_samples_total", {{"receiver", "fake"}}), 1);
  EXPECT_EQ(metrics_.value("proflow_exporter_received_batches_total", {{"exporter", "fake/shared"}}), 3);
  EXPECT_EQ(metrics_.value("proflow_processor_sent_batches_total", {{"processor", "fake/p1"}, {"pipeline", "profiles/b"}}),
            2);
}

TEST_F(PipelineGraphTest, RefusalsTravelBackToTheReceiverAndAreCounted) {
  auto g = build(R"(
receivers: { fake: {} }
exporters: { fake/full: { status: exhausted } }
service: { pipelines: { profiles: { receivers: [fake], exporters: [fake/full] } } }
)");
  ASSERT_TRUE(g->start(host_).isOk());
  Status s = FakeReceiver::find("fake")->push(::proflow::testing::batchOf(testing::makeRequest("svc", {testing::makeProfile(4)})));
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(metrics_.value("proflow_receiver_refused_batches_total", {{"receiver", "fake"}}), 1);
  EXPECT_EQ(metrics_.value("proflow_receiver_refused_samples_total", {{"receiver", "fake"}}), 4);
  g->shutdown(std::chrono::steady_clock::now());
}

// A status tap that takes no batch a pipeline edits, and counts what it is asked and given.
class CountingTap final : public status::BatchTap {
 public:
  void offer(std::shared_ptr<const flat::Batch>) override { ++offered; }
  bool holdEdited() override {
    ++asked;
    return false;
  }
  int offered = 0, asked = 0;
};

TEST_F(PipelineGraphTest, TheTapIsAskedBeforeHoldingABatchAPipelineEdits) {
  std::string errors;
  ASSERT_TRUE(config::loadServiceConfigText(R"(
receivers: { fake/edited: {}, fake/read: {} }
processors: { fake/reads: {}, fake/edits: { mutates: true } }
exporters: { fake: {} }
service:
  pipelines:
    profiles/edited: { receivers: [fake/edited], processors: [fake/reads, fake/edits], exporters: [fake] }
    profiles/read: { receivers: [fake/read], processors: [fake/reads], exporters: [fake] }
)", "g.yaml", registry_, &cfg_, &errors).isOk()) << errors;
  CountingTap tap;
  std::unique_ptr<graph::PipelineGraph> g;
  ASSERT_TRUE(graph::PipelineGraph::build(cfg_, runtime_, metrics_, &g, &tap).isOk());
  ASSERT_TRUE(g->start(host_).isOk());
  // The editing processor is second in line: the receiver's tap still knows its batches get edited.
  for (const char* receiver : {"fake/edited", "fake/read"})
    ASSERT_TRUE(FakeReceiver::find(receiver)
                    ->push(::proflow::testing::batchOf(testing::makeRequest("svc", {testing::makeProfile(2)})))
                    .isOk());
  EXPECT_EQ(tap.asked, 1);
  EXPECT_EQ(tap.offered, 1);  // the read-only pipeline's batch; the edited one was passed on unheld
  EXPECT_EQ(FakeExporter::find("fake")->received().size(), 2u);
  g->shutdown(std::chrono::steady_clock::now());
}

}  // namespace
}  // namespace proflow
