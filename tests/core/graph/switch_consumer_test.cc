// SwitchConsumer: calls finish on the route they started on; waitIdle sees them finish; pause holds
// new calls without refusing them; close refuses (retryable).
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>

#include "core/graph/switch_consumer.h"
#include "tests/support/profile_builder.h"
#include "tests/support/flat_request.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;

// Counts calls; with `gate` set, each call blocks until open() (a slow downstream).
class Target final : public ProfilesConsumer {
 public:
  explicit Target(bool gate = false) : gated_(gate) {}
  Status consume(Batch) override {
    entered.fetch_add(1);
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return !gated_; });
    done.fetch_add(1);
    return Status::ok();
  }
  void open() {
    {
      std::lock_guard lock(mu_);
      gated_ = false;
    }
    cv_.notify_all();
  }
  std::atomic<int> entered{0}, done{0};

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool gated_;
};

Batch someBatch() { return ::proflow::testing::batchOf(testing::makeRequest("svc", {testing::makeProfile(2)})); }

void waitUntil(const std::function<bool()>& cond) {
  for (int i = 0; i < 500 && !cond(); ++i) std::this_thread::sleep_for(10ms);
}

TEST(SwitchConsumer, InFlightCallsFinishOnTheOldRouteAndWaitIdleWaitsForThem) {
  auto old_target = std::make_shared<Target>(/*gate=*/true);
  auto new_target = std::make_shared<Target>();
  auto sw = std::make_shared<graph::SwitchConsumer>(old_target);
  auto inflight = std::async(std::launch::async, [&] { return sw->consume(someBatch()); });
  waitUntil([&] { return old_target->entered == 1; });

  auto route = sw->repoint(new_target);
  ASSERT_TRUE(sw->consume(someBatch()).isOk());  // new calls go to the new target at once
  EXPECT_EQ(new_target->done, 1);
  EXPECT_FALSE(sw->waitIdle(route, std::chrono::steady_clock::now() + 50ms));  // the old call still runs

  old_target->open();
  EXPECT_TRUE(sw->waitIdle(route, std::chrono::steady_clock::now() + 5s));
  EXPECT_TRUE(inflight.get().isOk());
  EXPECT_EQ(old_target->done, 1);  // it finished where it started
}

TEST(SwitchConsumer, PauseHoldsCallsAndResumeSendsThemToTheNewTarget) {
  auto old_target = std::make_shared<Target>();
  auto new_target = std::make_shared<Target>();
  auto sw = std::make_shared<graph::SwitchConsumer>(old_target);
  ASSERT_TRUE(sw->pause(std::chrono::steady_clock::now() + 1s));
  auto held = std::async(std::launch::async, [&] { return sw->consume(someBatch()); });
  EXPECT_EQ(held.wait_for(100ms), std::future_status::timeout);  // held, not refused
  sw->resume(new_target);
  EXPECT_TRUE(held.get().isOk());
  EXPECT_EQ(old_target->entered, 0);
  EXPECT_EQ(new_target->done, 1);
}

TEST(SwitchConsumer, PauseWaitsForTheCallsInProgress) {
  auto target = std::make_shared<Target>(/*gate=*/true);
  auto sw = std::make_shared<graph::SwitchConsumer>(target);
  auto inflight = std::async(std::launch::async, [&] { return sw->consume(someBatch()); });
  waitUntil([&] { return target->entered == 1; });
  EXPECT_FALSE(sw->pause(std::chrono::steady_clock::now() + 50ms));
  target->open();
  EXPECT_TRUE(sw->pause(std::chrono::steady_clock::now() + 5s));
  sw->resume(target);
  EXPECT_TRUE(inflight.get().isOk());
}

TEST(SwitchConsumer, AClosedSwitchRefusesWithARetryableStatus) {
  auto target = std::make_shared<Target>();
  graph::SwitchConsumer sw(target);
  sw.close();
  Status s = sw.consume(someBatch());
  EXPECT_FALSE(s.isOk());
  EXPECT_TRUE(s.retryable());
  EXPECT_EQ(target->entered, 0);
}

}  // namespace
}  // namespace proflow
