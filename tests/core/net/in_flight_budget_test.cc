#include "core/net/in_flight_budget.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace proflow::net {
namespace {

TEST(InFlightBudgetTest, ClaimsAreReleasedWithTheLastLease) {
  auto budget = std::make_shared<InFlightBudget>(100);
  InFlightLeasePtr a, b;
  ASSERT_TRUE(budget->acquire(60, &a).isOk());
  EXPECT_EQ(budget->used(), 60u);
  Status busy = budget->acquire(50, &b);
  EXPECT_EQ(busy.code(), StatusCode::kResourceExhausted);
  EXPECT_TRUE(busy.retryable());
  EXPECT_GT(busy.retryAfter().count(), 0);
  EXPECT_NE(busy.message().find("max_in_flight_bytes"), std::string::npos) << busy.message();
  auto copy = a;
  a.reset();
  EXPECT_EQ(budget->used(), 60u);  // a copy still holds it
  copy.reset();
  EXPECT_EQ(budget->used(), 0u);
  EXPECT_TRUE(budget->acquire(50, &b).isOk());
  EXPECT_EQ(budget->refused(), 1u);
}

using std::chrono_literals::operator""ms;

TEST(InFlightBudgetTest, ResizeGrowsWithinTheBudgetAndShrinksFreely) {
  auto budget = std::make_shared<InFlightBudget>(100, "max_in_flight_bytes", 1ms);
  InFlightLeasePtr a, b;
  ASSERT_TRUE(budget->acquire(10, &a).isOk());
  ASSERT_TRUE(budget->acquire(40, &b).isOk());
  EXPECT_TRUE(a->resize(60).isOk());
  EXPECT_EQ(budget->used(), 100u);
  Status s = a->resize(61, "decoded profile");
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_NE(s.message().find("decoded profile"), std::string::npos) << s.message();
  EXPECT_EQ(a->bytes(), 60u);  // unchanged after a refusal
  EXPECT_TRUE(a->resize(5).isOk());
  EXPECT_EQ(budget->used(), 45u);
}

TEST(InFlightBudgetTest, AClaimLargerThanTheWholeBudgetIsPermanent) {
  auto budget = std::make_shared<InFlightBudget>(100);
  InFlightLeasePtr a;
  Status s = budget->acquire(101, &a);
  EXPECT_EQ(s.code(), StatusCode::kPayloadTooLarge);
  EXPECT_FALSE(s.retryable());
  ASSERT_TRUE(budget->acquire(1, &a).isOk());
  EXPECT_EQ(a->resize(200).code(), StatusCode::kPayloadTooLarge);
}

TEST(InFlightBudgetTest, BodiesTakeAtMostHalfUnlessNothingElseIsInFlight) {
  auto budget = std::make_shared<InFlightBudget>(100);
  InFlightLeasePtr a, b, c;
  ASSERT_TRUE(budget->acquire(30, &a).isOk());
  ASSERT_TRUE(budget->acquire(20, &b).isOk());                                // 50: the bodies' half is full
  EXPECT_EQ(budget->acquire(1, &c).code(), StatusCode::kResourceExhausted);  // although 50 are free
  EXPECT_TRUE(a->resize(80).isOk());  // the other half is for growth
  EXPECT_EQ(budget->used(), 100u);
  a.reset();
  b.reset();
  ASSERT_TRUE(budget->acquire(90, &a).isOk());  // larger than half: admitted alone
  EXPECT_EQ(budget->acquire(1, &b).code(), StatusCode::kResourceExhausted);
}

// A crowd whose bodies fill the admission share while every decode needs more than the rest: without
// a waiting growth each decode would be refused, the crowd would retry, and nothing would finish.
TEST(InFlightBudgetTest, AGrowthWaitsForReleasesWhileTheDoorIsClosed) {
  auto budget = std::make_shared<InFlightBudget>(100, "max_in_flight_bytes", std::chrono::seconds(60));
  InFlightLeasePtr big, others[5], late;
  ASSERT_TRUE(budget->acquire(10, &big).isOk());
  for (auto& o : others) ASSERT_TRUE(budget->acquire(8, &o).isOk());  // 50 in use
  Status grown;
  std::thread waiter([&] { grown = big->resize(90, "decoded profile"); });  // needs 80 more, 50 free
  while (!budget->growthWaiting()) std::this_thread::yield();
  EXPECT_EQ(budget->acquire(1, &late).code(), StatusCode::kResourceExhausted);  // door closed
  Status second = others[0]->resize(9);  // another growth is not queued behind: refused at once
  EXPECT_EQ(second.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(others[0]->bytes(), 8u);
  for (auto& o : others) o.reset();  // the refused requests answer 429 and release their bodies
  waiter.join();
  EXPECT_TRUE(grown.isOk()) << grown.toString();
  EXPECT_EQ(budget->used(), 90u);
  EXPECT_FALSE(budget->growthWaiting());
  EXPECT_EQ(budget->acquire(10, &late).code(), StatusCode::kResourceExhausted);  // 90 used: over the bodies' half
  big.reset();
  EXPECT_TRUE(budget->acquire(10, &late).isOk());
}

TEST(InFlightBudgetTest, AWaitingGrowthGivesUpAfterItsWait) {
  auto budget = std::make_shared<InFlightBudget>(100, "max_in_flight_bytes", 20ms);
  InFlightLeasePtr a, b;
  ASSERT_TRUE(budget->acquire(40, &a).isOk());
  ASSERT_TRUE(budget->acquire(10, &b).isOk());
  Status s = a->resize(95, "decoded profile");
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_TRUE(s.retryable());
  EXPECT_NE(s.message().find("decoded profile"), std::string::npos) << s.message();
  EXPECT_EQ(a->bytes(), 40u);
  EXPECT_FALSE(budget->growthWaiting());
  b.reset();
  EXPECT_TRUE(budget->acquire(10, &b).isOk());  // the door opens again
}

// Many requests through a small budget, each admitted with its body and then growing to 4x it:
// every one finishes once retried (no livelock), and the budget is never overdrawn.
TEST(InFlightBudgetTest, ACrowdOfGrowingRequestsAllFinish) {
  auto budget = std::make_shared<InFlightBudget>(1000, "max_in_flight_bytes", std::chrono::seconds(60));
  std::atomic<int> done{0};
  std::atomic<size_t> peak{0};
  std::vector<std::thread> crowd;
  for (int t = 0; t < 8; ++t)
    crowd.emplace_back([&] {
      for (int finished = 0; finished < 50;) {
        InFlightLeasePtr lease;
        if (!budget->acquire(100, &lease).isOk() || !lease->resize(400).isOk()) {
          std::this_thread::yield();  // 429: the client retries
          continue;
        }
        size_t used = budget->used(), seen = peak.load();
        while (used > seen && !peak.compare_exchange_weak(seen, used)) {
        }
        ++finished;
        ++done;
      }
    });
  for (auto& t : crowd) t.join();
  EXPECT_EQ(done.load(), 400);
  EXPECT_LE(peak.load(), 1000u);
  EXPECT_EQ(budget->used(), 0u);
}

TEST(InFlightBudgetTest, ZeroMeansUnlimitedButStillCounts) {
  auto budget = std::make_shared<InFlightBudget>(0);
  InFlightLeasePtr a;
  ASSERT_TRUE(budget->acquire(size_t{1} << 40, &a).isOk());
  EXPECT_EQ(budget->used(), size_t{1} << 40);
}

TEST(InFlightBudgetTest, TheCurrentLeaseIsPerThreadAndScoped) {
  auto budget = std::make_shared<InFlightBudget>(100);
  InFlightLeasePtr outer, inner;
  ASSERT_TRUE(budget->acquire(10, &outer).isOk());
  ASSERT_TRUE(budget->acquire(10, &inner).isOk());
  EXPECT_EQ(CurrentLease::get(), nullptr);
  {
    CurrentLease a(outer.get());
    EXPECT_EQ(CurrentLease::get(), outer.get());
    {
      CurrentLease b(inner.get());
      EXPECT_EQ(CurrentLease::get(), inner.get());
      InFlightLease* elsewhere = outer.get();
      std::thread([&] { elsewhere = CurrentLease::get(); }).join();
      EXPECT_EQ(elsewhere, nullptr);  // another thread hands its own request over
    }
    EXPECT_EQ(CurrentLease::get(), outer.get());
  }
  EXPECT_EQ(CurrentLease::get(), nullptr);
}

}  // namespace
}  // namespace proflow::net
