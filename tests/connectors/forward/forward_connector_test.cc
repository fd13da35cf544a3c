// The forward connector hands every batch to every pipeline it feeds and returns their refusal.
#include <gtest/gtest.h>

#include <spdlog/spdlog.h>

#include "connectors/forward/factory.h"
#include "tests/support/profile_builder.h"
#include "tests/support/stand_ins.h"
#include "tests/support/flat_request.h"

namespace proflow {
namespace {

std::unique_ptr<Connector> makeForward(ConnectorRoutes routes) {
  auto factory = connectors::forward::makeForwardConnectorFactory();
  auto& f = static_cast<ConnectorFactory&>(*factory);
  auto config = f.createDefaultConfig();
  CreateSettings settings{{"forward", ""}, ComponentKind::kConnector, spdlog::default_logger(), nullptr, nullptr};
  return f.create(settings, *config, std::move(routes));
}

TEST(ForwardConnector, EveryPipelineGetsEveryBatch) {
  auto a = std::make_shared<testing::CaptureConsumer>();
  auto b = std::make_shared<testing::CaptureConsumer>();
  auto connector = makeForward({{"profiles/a", a}, {"profiles/b", b}});
  testing::NullHost host;
  ASSERT_TRUE(connector->start(host).isOk());
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(connector->consume(::proflow::testing::batchOf(testing::makeRequest("svc", {testing::makeProfile(2)}))).isOk());
  EXPECT_EQ(a->count(), 3u);
  EXPECT_EQ(b->count(), 3u);
  EXPECT_EQ(b->batches[0].counts().samples, 2u);
  connector->shutdown(std::chrono::steady_clock::now());
}

TEST(ForwardConnector, ARefusalOfOnePipelineIsTheSendersAnswer) {
  auto ok = std::make_shared<testing::CaptureConsumer>();
  auto full = std::make_shared<testing::CaptureConsumer>();
  full->answer = Status::exhausted("queue full");
  auto connector = makeForward({{"profiles/ok", ok}, {"profiles/full", full}});
  const Status s = connector->consume(::proflow::testing::batchOf(testing::makeRequest("svc", {testing::makeProfile(1)})));
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(s.message(), "queue full");
}

TEST(ForwardConnector, HasNoOptions) {
  auto factory = connectors::forward::makeForwardConnectorFactory();
  EXPECT_EQ(factory->kind(), ComponentKind::kConnector);
  EXPECT_EQ(factory->type(), "forward");
  EXPECT_TRUE(factory->createDefaultConfig()->options().empty());
}

}  // namespace
}  // namespace proflow
