#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <spdlog/spdlog.h>

#include "core/exporterhelper/exporter_helper.h"
#include "tests/support/profile_builder.h"
#include "tests/support/stand_ins.h"
#include "tests/support/flat_request.h"

namespace proflow::exporterhelper {
namespace {

using namespace std::chrono_literals;

// Answers each push with the next scripted status (OK once the script runs out); can be held.
class ScriptedSender final : public Sender {
 public:
  explicit ScriptedSender(std::deque<Status> script) : script_(std::move(script)) {}
  Status push(const Batch&, Deadline) override {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return !held_; });
    ++attempts_;
    if (script_.empty()) {
      ++delivered_;
      return Status::ok();
    }
    Status s = script_.front();
    script_.pop_front();
    if (s.isOk()) ++delivered_;
    return s;
  }
  void hold(bool h) {
    std::lock_guard lock(mu_);
    held_ = h;
    cv_.notify_all();
  }
  int attempts() const {
    std::lock_guard lock(mu_);
    return attempts_;
  }
  int delivered() const {
    std::lock_guard lock(mu_);
    return delivered_;
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Status> script_;
  bool held_ = false;
  int attempts_ = 0, delivered_ = 0;
};

using ::proflow::testing::NullHost;

class ExporterHelperTest : public ::testing::Test {
 protected:
  std::unique_ptr<ExporterHelper> make(ExporterHelperConfig cfg, ScriptedSender** sender_out,
                                       std::deque<Status> script = {}) {
    auto sender = std::make_unique<ScriptedSender>(std::move(script));
    *sender_out = sender.get();
    CreateSettings s{ComponentId{"test", ""}, ComponentKind::kExporter, spdlog::default_logger(), &telemetry_, nullptr};
    return std::make_unique<ExporterHelper>(s, cfg, std::move(sender));
  }
  static ExporterHelperConfig fastRetries() {
    ExporterHelperConfig c;
    c.retry_on_failure.initial_interval = 1ms;
    c.retry_on_failure.max_interval = 5ms;
    c.retry_on_failure.max_elapsed_time = 10s;
    return c;
  }
  static Batch batch() { return ::proflow::testing::batchOf(testing::makeRequest("svc", {testing::makeProfile(3)})); }
  double metric(const std::string& name) { return metrics_.value(name, {{"exporter", "test"}}); }

  telemetry::MetricsRegistry metrics_;
  telemetry::ComponentTelemetry telemetry_{metrics_, ComponentKind::kExporter, "test"};
  NullHost host_;
};

TEST_F(ExporterHelperTest, RetriesRetryableFailuresUntilDelivered) {
  ScriptedSender* sender;
  auto e = make(fastRetries(), &sender, {Status::unavailable("down"), Status::exhausted("busy"), Status::ok()});
  ASSERT_TRUE(e->start(host_).isOk());
  ASSERT_TRUE(e->consume(batch()).isOk());
  e->shutdown(std::chrono::steady_clock::now() + 5s);
  EXPECT_EQ(sender->attempts(), 3);
  EXPECT_EQ(sender->delivered(), 1);
  EXPECT_EQ(metric("proflow_exporter_sent_batches_total"), 1);
  EXPECT_EQ(metric("proflow_exporter_failed_batches_total"), 0);
}

TEST_F(ExporterHelperTest, PermanentErrorsAreNotRetriedAndAreCounted) {
  ScriptedSender* sender;
  auto e = make(fastRetries(), &sender, {Status::invalid("bad data")});
  ASSERT_TRUE(e->start(host_).isOk());
  ASSERT_TRUE(e->consume(batch()).isOk());
  e->shutdown(std::chrono::steady_clock::now() + 5s);
  EXPECT_EQ(sender->attempts(), 1);
  EXPECT_EQ(metric("proflow_exporter_failed_batches_total"), 1);
  EXPECT_EQ(metric("proflow_exporter_failed_samples_total"), 3);
}

TEST_F(ExporterHelperTest, GivesUpAfterMaxElapsedTime) {
  ScriptedSender* sender;
  auto cfg = fastRetries();
  cfg.retry_on_failure.max_elapsed_time = 30ms;
  std::deque<Status> always_down(1000, Status::unavailable("down"));
  auto e = make(cfg, &sender, always_down);
  ASSERT_TRUE(e->start(host_).isOk());
  ASSERT_TRUE(e->consume(batch()).isOk());
  e->shutdown(std::chrono::steady_clock::now() + 5s);
  EXPECT_GT(sender->attempts(), 1);
  EXPECT_LT(sender->attempts(), 1000);
  EXPECT_EQ(metric("proflow_exporter_failed_batches_total"), 1);
}

TEST_F(ExporterHelperTest, FullQueueRefusesWithRetryableStatus) {
  ScriptedSender* sender;
  auto cfg = fastRetries();
  cfg.sending_queue.num_consumers = 1;
  cfg.sending_queue.queue_size = 2;
  auto e = make(cfg, &sender);
  sender->hold(true);
  ASSERT_TRUE(e->start(host_).isOk());
  ASSERT_TRUE(e->consume(batch()).isOk());  // taken by the worker (held in push)
  while (e->queued() != 0) std::this_thread::sleep_for(1ms);
  ASSERT_TRUE(e->consume(batch()).isOk());
  ASSERT_TRUE(e->consume(batch()).isOk());
  Status refused = e->consume(batch());
  EXPECT_EQ(refused.code(), StatusCode::kResourceExhausted);
  EXPECT_TRUE(refused.retryable());
  EXPECT_GT(refused.retryAfter().count(), 0);
  EXPECT_EQ(metric("proflow_exporter_queue_size"), 2);
  EXPECT_EQ(metric("proflow_exporter_queue_capacity"), 2);
  sender->hold(false);
  e->shutdown(std::chrono::steady_clock::now() + 5s);
  // Everything that was accepted got delivered.
  EXPECT_EQ(sender->delivered(), 3);
}

TEST_F(ExporterHelperTest, ShutdownDrainsTheQueue) {
  ScriptedSender* sender;
  auto cfg = fastRetries();
  cfg.sending_queue.num_consumers = 2;
  auto e = make(cfg, &sender);
  ASSERT_TRUE(e->start(host_).isOk());
  for (int i = 0; i < 50; ++i) ASSERT_TRUE(e->consume(batch()).isOk());
  e->shutdown(std::chrono::steady_clock::now() + 10s);
  EXPECT_EQ(sender->delivered(), 50);
  EXPECT_EQ(metric("proflow_exporter_dropped_batches_total"), 0);
  EXPECT_EQ(e->consume(batch()).code(), StatusCode::kUnavailable);  // closed after shutdown
}

TEST_F(ExporterHelperTest, WhatCannotBeSentBeforeTheDeadlineIsCountedAsDropped) {
  ScriptedSender* sender;
  auto cfg = fastRetries();
  cfg.sending_queue.num_consumers = 1;
  std::deque<Status> always_down(100000, Status::unavailable("down"));
  auto e = make(cfg, &sender, always_down);
  ASSERT_TRUE(e->start(host_).isOk());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(e->consume(batch()).isOk());
  e->shutdown(std::chrono::steady_clock::now() + 50ms);
  // One batch was in the retry loop (failed), the other four never left the queue (dropped).
  EXPECT_EQ(metric("proflow_exporter_failed_batches_total") + metric("proflow_exporter_dropped_batches_total"), 5);
  EXPECT_GE(metric("proflow_exporter_dropped_batches_total"), 4);
}

TEST_F(ExporterHelperTest, WithoutQueueTheCallerSeesTheFinalStatus) {
  ScriptedSender* sender;
  auto cfg = fastRetries();
  cfg.sending_queue.enabled = false;
  auto e = make(cfg, &sender, {Status::unavailable("down"), Status::invalid("bad")});
  ASSERT_TRUE(e->start(host_).isOk());
  EXPECT_EQ(e->consume(batch()).code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(e->consume(batch()).isOk());
  EXPECT_EQ(sender->attempts(), 3);
  e->shutdown(std::chrono::steady_clock::now());
}

TEST_F(ExporterHelperTest, HonoursRetryAfterFromThePeer) {
  ScriptedSender* sender;
  auto cfg = fastRetries();
  cfg.sending_queue.enabled = false;
  cfg.retry_on_failure.initial_interval = 1ms;
  auto e = make(cfg, &sender, {Status::exhausted("slow down").withRetryAfter(200ms)});
  ASSERT_TRUE(e->start(host_).isOk());
  auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(e->consume(batch()).isOk());
  // Not a timing threshold on performance: the helper must have waited at least what the peer asked.
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 200ms);
  e->shutdown(std::chrono::steady_clock::now());
}

}  // namespace
}  // namespace proflow::exporterhelper
