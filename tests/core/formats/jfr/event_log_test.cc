// The JFR converter's event log: values kept in order across its blocks, and replaced whole.
#include "core/formats/jfr/event_log.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace proflow::jfr::internal {
namespace {

TEST(JfrEventLog, KeepsEveryValueInOrderAcrossBlocks) {
  EventLog<uint64_t> log;
  EXPECT_TRUE(log.empty());
  const uint64_t n = 3 * 8192 + 5;  // past two block boundaries
  for (uint64_t i = 0; i < n; ++i) log.push_back(i * 7);
  ASSERT_EQ(log.size(), n);
  for (uint64_t i : {uint64_t{0}, uint64_t{8191}, uint64_t{8192}, uint64_t{16384}, n - 1}) EXPECT_EQ(log[i], i * 7);
  std::vector<uint64_t> seen;
  log.forEach([&](uint64_t v) { seen.push_back(v); });
  ASSERT_EQ(seen.size(), n);
  for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(seen[i], i * 7) << i;
}

TEST(JfrEventLog, AssignReplacesTheContents) {
  EventLog<int64_t> log;
  for (int i = 0; i < 10; ++i) log.push_back(-i);
  log.assign(8193, 3);
  ASSERT_EQ(log.size(), 8193u);
  EXPECT_EQ(log[0], 3);
  EXPECT_EQ(log[8192], 3);
  log.push_back(4);
  EXPECT_EQ(log.size(), 8194u);
  EXPECT_EQ(log[8193], 4);
  log.clear();
  EXPECT_TRUE(log.empty());
  int calls = 0;
  log.forEach([&](int64_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

}  // namespace
}  // namespace proflow::jfr::internal
