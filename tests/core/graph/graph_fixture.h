// What the graph tests share: the fake components registered, a runtime, a metrics registry and a
// host that ignores fatal errors.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/graph/pipeline_graph.h"
#include "tests/support/fake_components.h"
#include "tests/support/profile_builder.h"
#include "tests/support/stand_ins.h"
#include "tests/support/flat_request.h"

namespace proflow::testing {

class GraphFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    registerFakes(registry_);
    Journal::global().clear();
  }

  std::shared_ptr<config::ServiceConfig> load(const std::string& yaml) {
    auto cfg = std::make_shared<config::ServiceConfig>();
    std::string errors;
    EXPECT_TRUE(config::loadServiceConfigText(yaml, "g.yaml", registry_, cfg.get(), &errors).isOk()) << errors;
    return cfg;
  }

  // Builds the graph of `after` from `running` and moves the traffic over.
  std::unique_ptr<graph::PipelineGraph> reload(graph::PipelineGraph& running, const config::ServiceConfig& before,
                                               std::shared_ptr<config::ServiceConfig> after) {
    const auto diff = graph::diffConfigs(before, *after);
    std::unique_ptr<graph::PipelineGraph> next;
    Status s = graph::PipelineGraph::buildNext(*after, after, running, diff, runtime_, metrics_, &next);
    EXPECT_TRUE(s.isOk()) << s.toString();
    bool switched = false;
    s = next->takeOver(running, host_, std::chrono::steady_clock::now() + std::chrono::seconds(5), &switched);
    EXPECT_TRUE(s.isOk()) << s.toString();
    EXPECT_TRUE(switched);
    return next;
  }

  // One batch (a profile of 2 samples) into the fake receiver `receiver`.
  static Status push(const std::string& receiver) {
    return FakeReceiver::find(receiver)->push(::proflow::testing::batchOf(makeRequest("svc", {makeProfile(2)})));
  }

  static size_t count(const std::vector<std::string>& j, const std::string& e) {
    return static_cast<size_t>(std::count(j.begin(), j.end(), e));
  }

  static size_t indexOf(const std::vector<std::string>& v, const std::string& e) {
    auto it = std::find(v.begin(), v.end(), e);
    EXPECT_NE(it, v.end()) << e;
    return static_cast<size_t>(it - v.begin());
  }

  Registry registry_;
  Runtime runtime_{1, 1};
  telemetry::MetricsRegistry metrics_;
  NullHost host_;
};

}  // namespace proflow::testing
