// What the graph tests share: the fake components registered, a runtime, a metrics registry and a
// host that ignores fatal errors.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/graph/pipeline_graph.h"
#include "tests/support/fake_components.h"
#include "tests/support/stand_ins.h"

namespace proflow::testing {

class GraphFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    registerFakes(registry_);
    Journal::global().clear();
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
