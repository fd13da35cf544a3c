// The persistent sending queue: what consume() acknowledged is on disk until delivered, survives a
// shutdown with the peer down, and is resent in order by the next start.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <mutex>
#include <thread>

#include "core/exporterhelper/exporter_helper.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"
#include "tests/support/stand_ins.h"
#include "tests/support/flat_request.h"

namespace proflow::exporterhelper {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// A peer that is down (Unavailable) or up (records the service of every delivered batch), or that
// rejects everything for good.
class Peer final : public Sender {
 public:
  enum class Mode { kDown, kUp, kRejecting };
  explicit Peer(Mode mode) : mode_(mode) {}
  Status push(const Batch& batch, Deadline) override {
    if (mode_ == Mode::kDown) return Status::unavailable("peer down");
    if (mode_ == Mode::kRejecting) return Status::invalid("peer rejects this");
    std::lock_guard lock(mu_);
    delivered_.push_back(testing::serviceName(::proflow::testing::requestOf(batch), 0));
    return Status::ok();
  }
  std::vector<std::string> delivered() const {
    std::lock_guard lock(mu_);
    return delivered_;
  }

 private:
  Mode mode_;
  mutable std::mutex mu_;
  std::vector<std::string> delivered_;
};

using ::proflow::testing::NullHost;

class PersistentQueueTest : public ::testing::Test {
 protected:
  std::unique_ptr<ExporterHelper> make(Peer::Mode mode, Peer** peer_out, std::string name = "") {
    auto peer = std::make_unique<Peer>(mode);
    *peer_out = peer.get();
    ExporterHelperConfig c;
    c.retry_on_failure.initial_interval = 1ms;
    c.retry_on_failure.max_interval = 5ms;
    c.retry_on_failure.max_elapsed_time = 0s;  // retry until shutdown
    c.sending_queue.num_consumers = 1;         // one sender: delivery order is queue order
    c.sending_queue.directory = dir_.path().string();
    CreateSettings s{ComponentId{"otlp", std::move(name)}, ComponentKind::kExporter, spdlog::default_logger(),
                     &telemetry_, nullptr};
    return std::make_unique<ExporterHelper>(s, c, std::move(peer));
  }
  static Batch batch(const std::string& service) {
    return ::proflow::testing::batchOf(testing::makeRequest(service, {testing::makeProfile(3)}));
  }
  // The persisted batch files of exporter "otlp/<name>" (directory "otlp_<name>").
  std::vector<std::string> files(const std::string& sub, const std::string& suffix = ".otlp") const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir_.path() / sub)) {
      std::string n = e.path().filename().string();
      if (n.ends_with(suffix)) out.push_back(n);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  static bool waitFor(const std::function<bool()>& cond) {
    for (auto until = Clock::now() + 10s; Clock::now() < until; std::this_thread::sleep_for(5ms))
      if (cond()) return true;
    return cond();
  }
  double metric(const std::string& name) { return metrics_.value(name, {{"exporter", "test"}}); }

  testing::TempDir dir_;
  telemetry::MetricsRegistry metrics_;
  telemetry::ComponentTelemetry telemetry_{metrics_, ComponentKind::kExporter, "test"};
  NullHost host_;
};

TEST_F(PersistentQueueTest, PendingBatchesSurviveARestartAndAreResentInOrder) {
  Peer* down;
  auto first = make(Peer::Mode::kDown, &down, "gw");
  ASSERT_TRUE(first->start(host_).isOk());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(first->consume(batch("svc" + std::to_string(i))).isOk());
  EXPECT_EQ(files("otlp_gw").size(), 5u);  // on disk once acknowledged
  first->shutdown(Clock::now() + 50ms);
  first.reset();
  EXPECT_EQ(files("otlp_gw").size(), 5u);
  EXPECT_EQ(metric("proflow_exporter_dropped_batches_total"), 0);
  EXPECT_EQ(metric("proflow_exporter_failed_batches_total"), 0);

  Peer* up;
  auto second = make(Peer::Mode::kUp, &up, "gw");
  ASSERT_TRUE(second->start(host_).isOk());
  ASSERT_TRUE(waitFor([&] { return up->delivered().size() == 5; }));
  EXPECT_EQ(up->delivered(), (std::vector<std::string>{"svc0", "svc1", "svc2", "svc3", "svc4"}));
  ASSERT_TRUE(second->consume(batch("svc5")).isOk());  // numbering goes on after the old batches
  ASSERT_TRUE(waitFor([&] { return up->delivered().size() == 6; }));
  second->shutdown(Clock::now() + 5s);
  EXPECT_TRUE(files("otlp_gw").empty());
  EXPECT_EQ(metric("proflow_exporter_sent_batches_total"), 6);
}

TEST_F(PersistentQueueTest, FailedForGoodLeavesTheDiskAndIsCounted) {
  Peer* peer;
  auto e = make(Peer::Mode::kRejecting, &peer);
  ASSERT_TRUE(e->start(host_).isOk());
  ASSERT_TRUE(e->consume(batch("a")).isOk());
  ASSERT_TRUE(waitFor([&] { return metric("proflow_exporter_failed_batches_total") == 1; }));
  e->shutdown(Clock::now() + 5s);
  EXPECT_TRUE(files("otlp").empty());
}

TEST_F(PersistentQueueTest, UnreadableFileIsMovedAsideAndTheRestIsSent) {
  Peer* down;
  auto first = make(Peer::Mode::kDown, &down);
  ASSERT_TRUE(first->start(host_).isOk());
  ASSERT_TRUE(first->consume(batch("lost")).isOk());
  ASSERT_TRUE(first->consume(batch("kept")).isOk());
  first->shutdown(Clock::now() + 50ms);
  first.reset();
  auto names = files("otlp");
  ASSERT_EQ(names.size(), 2u);
  std::ofstream((dir_.path() / "otlp" / names[0]).string(), std::ios::trunc) << "\xff\xff not protobuf";

  Peer* up;
  auto second = make(Peer::Mode::kUp, &up);
  ASSERT_TRUE(second->start(host_).isOk());
  ASSERT_TRUE(waitFor([&] { return up->delivered().size() == 1; }));
  second->shutdown(Clock::now() + 5s);
  EXPECT_EQ(up->delivered(), std::vector<std::string>{"kept"});
  EXPECT_EQ(files("otlp", ".corrupt"), std::vector<std::string>{names[0] + ".corrupt"});
  EXPECT_TRUE(files("otlp").empty());
}

TEST_F(PersistentQueueTest, TwoOwnersOfOneQueueDirectoryAreRefused) {
  Peer *a, *b;
  auto first = make(Peer::Mode::kUp, &a);
  auto second = make(Peer::Mode::kUp, &b);
  ASSERT_TRUE(first->start(host_).isOk());
  Status s = second->start(host_);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.toString();
  EXPECT_NE(s.message().find("in use by another process"), std::string::npos) << s.message();
  first->shutdown(Clock::now() + 1s);
  first.reset();
  EXPECT_TRUE(second->start(host_).isOk());  // the lock went with its owner
  second->shutdown(Clock::now() + 1s);
}

TEST_F(PersistentQueueTest, UnwritableDirectoryRefusesToStart) {
  std::string blocker = dir_.write("file", "x");
  Peer* peer;
  ExporterHelperConfig c;
  c.sending_queue.directory = blocker;  // a file, not a directory
  CreateSettings s{ComponentId{"otlp", ""}, ComponentKind::kExporter, spdlog::default_logger(), &telemetry_, nullptr};
  auto sender = std::make_unique<Peer>(Peer::Mode::kUp);
  peer = sender.get();
  ExporterHelper e(s, c, std::move(sender));
  Status st = e.start(host_);
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find(blocker), std::string::npos) << st.message();
  (void)peer;
}

}  // namespace
}  // namespace proflow::exporterhelper
