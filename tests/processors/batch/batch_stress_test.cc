// Many threads batching at once into many shards, with random batch sizes and resources, flushes by
// size and by timeout, and a downstream that sometimes refuses: every profile arrives exactly once,
// also the parts that found their shard busy and were merged by the caller holding it.
// Labelled `concurrency` so a ThreadSanitizer build can run it.
#include <gtest/gtest.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

#include <random>
#include <set>
#include <thread>

#include "tests/support/request_merger.h"
#include "core/telemetry/metrics.h"
#include "processors/batch/batch_processor.h"
#include "tests/processors/batch/scripted_sink.h"
#include "tests/support/profile_builder.h"
#include "tests/support/flat_request.h"

namespace proflow::processors::batch {
namespace {

using namespace std::chrono_literals;

// Refuses (retryably) about one call in `one_in`, from any thread.
class FlakySink : public ScriptedSink {
 public:
  explicit FlakySink(int one_in) : one_in_(one_in) {}
  Status consume(Batch b) override {
    bool refuse;
    {
      std::lock_guard lock(rng_mu_);
      refuse = one_in_ > 0 && std::uniform_int_distribution<int>(0, one_in_ - 1)(rng_) == 0;
    }
    if (refuse) return Status::unavailable("flaky downstream");
    return ScriptedSink::consume(std::move(b));
  }

 private:
  int one_in_;
  std::mutex rng_mu_;
  std::mt19937 rng_{7};
};

// One request of 1-3 resources (of 24 services), 1-4 profiles each; every profile's only sample
// value is a unique id.
otlp::Request randomRequest(std::mt19937& rng, int64_t& next_id) {
  otlp::Request out;
  RequestMerger merger(&out);
  const int resources = std::uniform_int_distribution<int>(1, 3)(rng);
  for (int r = 0; r < resources; ++r) {
    std::vector<testing::ProfileSpec> profiles;
    const int n = std::uniform_int_distribution<int>(1, 4)(rng);
    for (int p = 0; p < n; ++p) {
      testing::ProfileSpec spec;
      spec.samples.push_back({{"f" + std::to_string(next_id % 11), "main"}, next_id++});
      profiles.push_back(spec);
    }
    merger.append(testing::makeRequest("svc" + std::to_string(std::uniform_int_distribution<int>(0, 23)(rng)),
                                       profiles));
  }
  return out;
}

void runStress(bool wait_for_flush, int refuse_one_in) {
  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry telemetry{registry, ComponentKind::kProcessor, "batch"};
  auto sink = std::make_shared<FlakySink>(refuse_one_in);
  BatchProcessorConfig c;
  c.send_batch_size = 10;
  c.send_batch_max_size = 16;
  c.timeout = 1ms;
  c.shards = 7;
  c.wait_for_flush = wait_for_flush ? "true" : "false";
  BatchProcessor processor(batchTestSettings(&telemetry), c, sink);
  NullHost host;
  ASSERT_TRUE(processor.start(host).isOk());

  constexpr int kThreads = 8, kRequestsPerThread = 150;
  std::vector<std::thread> threads;
  std::vector<std::vector<int64_t>> sent(kThreads);
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      std::mt19937 rng(static_cast<unsigned>(t + 1));
      int64_t next_id = int64_t{t} * 1'000'000;
      for (int i = 0; i < kRequestsPerThread; ++i) {
        const int64_t first = next_id;
        otlp::Request request = randomRequest(rng, next_id);
        // Refusals are backpressure (or, waiting, the downstream's answer): resend, as a client would.
        for (;;) {
          Status st = processor.consume(::proflow::testing::batchOf(otlp::Request(request)));
          if (st.isOk()) break;
          ASSERT_TRUE(st.retryable()) << st.toString();
          std::this_thread::yield();
        }
        for (int64_t id = first; id < next_id; ++id) sent[t].push_back(id);
      }
    });
  for (auto& t : threads) t.join();
  processor.shutdown(Deadline::clock::now() + 60s);

  std::multiset<int64_t> got;
  for (const auto& b : sink->delivered()) {
    EXPECT_LE(b.counts().profiles, 16u);
    const otlp::Request req = ::proflow::testing::requestOf(b);
    EXPECT_TRUE(testing::dictionaryProblems(req).empty());
    for (const auto& rp : req.resource_profiles())
      for (const auto& sp : rp.scope_profiles())
        for (const auto& p : sp.profiles()) got.insert(p.samples(0).values(0));
  }
  std::multiset<int64_t> want;
  for (const auto& ids : sent) want.insert(ids.begin(), ids.end());
  if (!wait_for_flush || refuse_one_in == 0) {
    EXPECT_EQ(got, want);  // exactly once
  } else {
    // A waiting caller told to resend may deliver the parts taken before the refusal twice.
    EXPECT_EQ(std::set<int64_t>(got.begin(), got.end()), std::set<int64_t>(want.begin(), want.end()));
  }
  EXPECT_EQ(registry.value("proflow_processor_dropped_profiles_total", {{"processor", "batch"}}), 0);
  EXPECT_EQ(registry.value("proflow_processor_batch_buffered_profiles", {{"processor", "batch"}}), 0);
  // Eight threads on seven shards meet: the inbox path (merged by another caller) ran too.
  if (!wait_for_flush) {
    EXPECT_GT(registry.value("proflow_processor_batch_inboxed_parts_total", {{"processor", "batch"}}), 0);
  }
}

TEST(BatchStress, EveryProfileExactlyOnceWithRetries) { runStress(/*wait_for_flush=*/false, 10); }
TEST(BatchStress, EveryProfileExactlyOnceWhenWaitingForFlushes) { runStress(/*wait_for_flush=*/true, 0); }
TEST(BatchStress, WaitingCallersResendRefusalsAndLoseNothing) { runStress(/*wait_for_flush=*/true, 10); }

}  // namespace
}  // namespace proflow::processors::batch
