#include "core/net/in_flight_budget.h"

#include <gtest/gtest.h>

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

TEST(InFlightBudgetTest, ResizeGrowsWithinTheBudgetAndShrinksFreely) {
  auto budget = std::make_shared<InFlightBudget>(100);
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

TEST(InFlightBudgetTest, ZeroMeansUnlimitedButStillCounts) {
  auto budget = std::make_shared<InFlightBudget>(0);
  InFlightLeasePtr a;
  ASSERT_TRUE(budget->acquire(size_t{1} << 40, &a).isOk());
  EXPECT_EQ(budget->used(), size_t{1} << 40);
}

}  // namespace
}  // namespace proflow::net
