// The routing decision agents must agree on: same backends -> same owner for every key, whatever
// order the backends were learnt in; keys spread evenly; one more backend moves only its share.
#include "exporters/load_balancing/hash_ring.h"

#include <gtest/gtest.h>

#include <map>

namespace proflow::exporters::loadbalancing {
namespace {

std::vector<std::string> keys(int n) {
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i) out.push_back("service-" + std::to_string(i));
  return out;
}

TEST(HashRing, OrderAndDuplicatesOfBackendsDoNotChangeRouting) {
  HashRing a({"gw-1:4317", "gw-2:4317", "gw-3:4317"});
  HashRing b({"gw-3:4317", "gw-1:4317", "gw-2:4317", "gw-1:4317"});
  EXPECT_EQ(a.backends(), b.backends());
  for (const auto& k : keys(2000)) EXPECT_EQ(a.backendFor(k), b.backendFor(k)) << k;
}

TEST(HashRing, KeysSpreadEvenly) {
  HashRing ring({"gw-1:4317", "gw-2:4317", "gw-3:4317", "gw-4:4317"});
  std::map<std::string, int> load;
  for (const auto& k : keys(8000)) ++load[ring.backendFor(k)];
  ASSERT_EQ(load.size(), 4u);
  for (const auto& [backend, n] : load) {
    EXPECT_GT(n, 1400) << backend;  // 2000 expected; 200 points per backend keep it within ~30%
    EXPECT_LT(n, 2600) << backend;
  }
}

TEST(HashRing, AddingABackendMovesOnlyKeysToIt) {
  HashRing three({"gw-1:4317", "gw-2:4317", "gw-3:4317"});
  HashRing four({"gw-1:4317", "gw-2:4317", "gw-3:4317", "gw-4:4317"});
  int moved = 0;
  for (const auto& k : keys(8000)) {
    const std::string& before = three.backendFor(k);
    const std::string& after = four.backendFor(k);
    if (before != after) {
      ++moved;
      EXPECT_EQ(after, "gw-4:4317") << k << " moved between old backends";
    }
  }
  EXPECT_GT(moved, 8000 / 4 / 2);      // about a quarter moves...
  EXPECT_LT(moved, 8000 / 4 * 3 / 2);  // ...not a reshuffle
}

}  // namespace
}  // namespace proflow::exporters::loadbalancing
