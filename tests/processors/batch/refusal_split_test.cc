// A request merged from several callers' batches and refused by the downstream for its data: only
// the data refused is dropped (not waiting) or refused to its own caller (waiting); the other
// callers' data reaches the downstream.
#include <gtest/gtest.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "core/flat/flat_attributes.h"
#include "core/telemetry/metrics.h"
#include "processors/batch/batch_processor.h"
#include "tests/processors/batch/scripted_sink.h"
#include "tests/support/flat_request.h"
#include "tests/support/profile_builder.h"

namespace proflow::processors::batch {
namespace {

using namespace std::chrono_literals;
using ::proflow::testing::makeProfile;
using ::proflow::testing::makeRequest;
using ::proflow::testing::ProfileSpec;

// Refuses (INVALID_ARGUMENT) any batch holding a resource of service "bad" or a profile of exactly
// kBadSamples samples, as a validating exporter or a routing condition would; counts what it takes.
class PickySink : public ProfilesConsumer, public DurableAcceptance {
 public:
  static constexpr uint32_t kBadSamples = 7;
  bool durable = false;

  bool acceptsDurably() const override { return durable; }
  Status consume(Batch batch) override {
    std::unique_lock lock(mu_);
    ++in_flight_;
    cv_.notify_all();
    cv_.wait(lock, [&] { return !held_; });
    --in_flight_;
    const flat::Batch& b = batch.data();
    for (const flat::Resource& r : b.resources)
      if (flat::resourceAttribute(b, r, "service.name") == "bad") return Status::invalid("service bad is refused");
    for (const flat::Profile& p : b.profiles)
      if (p.samples.size == kBadSamples) return Status::invalid("a profile of 7 samples is refused");
    for (const flat::Resource& r : b.resources)
      b.forEachScope(r, [&](uint32_t s) {
        const std::string service = flat::resourceAttribute(b, r, "service.name").value_or("");
        for (uint32_t p = b.scopes[s].profiles.begin; p < b.scopes[s].profiles.end(); ++p) {
          ++profiles_[service];
          samples_[service] += b.profiles[p].samples.size;
        }
      });
    cv_.notify_all();
    return Status::ok();
  }
  void hold(bool on) {
    std::lock_guard lock(mu_);
    held_ = on;
    cv_.notify_all();
  }
  void waitInFlight() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return in_flight_ > 0; });
  }
  // Waits (a liveness bound, not a timing assertion) until `service` has `n` profiles delivered.
  bool waitProfiles(const std::string& service, uint64_t n) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, 60s, [&] { return profiles_[service] >= n; });
  }
  uint64_t profiles(const std::string& service) {
    std::lock_guard lock(mu_);
    return profiles_[service];
  }
  uint64_t samples(const std::string& service) {
    std::lock_guard lock(mu_);
    return samples_[service];
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool held_ = false;
  int in_flight_ = 0;
  std::map<std::string, uint64_t> profiles_, samples_;
};

struct Harness {
  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry telemetry{registry, ComponentKind::kProcessor, "batch"};
  std::shared_ptr<PickySink> sink = std::make_shared<PickySink>();
  NullHost host;
  std::unique_ptr<BatchProcessor> processor;

  Harness(uint32_t send_batch_size, bool durable) {
    BatchProcessorConfig c;
    c.send_batch_size = send_batch_size;
    c.timeout = std::chrono::hours(1);  // only the size flushes
    c.shards = 1;                        // every caller's data in one request
    sink->durable = durable;
    processor = std::make_unique<BatchProcessor>(batchTestSettings(&telemetry), c, sink);
    EXPECT_TRUE(processor->start(host).isOk());
  }
  ~Harness() { processor->shutdown(Deadline::clock::now() + 30s); }
  double metric(const std::string& name) { return registry.value(name, {{"processor", "batch"}}); }
  Status push(const std::string& service, std::vector<ProfileSpec> profiles) {
    return processor->consume(::proflow::testing::batchOf(makeRequest(service, profiles)));
  }
};

TEST(BatchRefusalSplit, OnlyTheRefusedResourceIsDroppedFromAMergedRequest) {
  Harness h(6, /*durable=*/false);
  ASSERT_TRUE(h.push("good", {makeProfile(1, 0), makeProfile(2, 1)}).isOk());
  ASSERT_TRUE(h.push("bad", {makeProfile(3, 2)}).isOk());  // acknowledged, as every caller is
  ASSERT_TRUE(h.push("good", {makeProfile(4, 3), makeProfile(5, 4)}).isOk());
  ASSERT_TRUE(h.push("other", {makeProfile(6, 5)}).isOk());  // 6 profiles: the request goes out

  ASSERT_TRUE(h.sink->waitProfiles("good", 4));
  ASSERT_TRUE(h.sink->waitProfiles("other", 1));
  EXPECT_EQ(h.sink->samples("good"), 1u + 2 + 4 + 5);
  EXPECT_EQ(h.sink->profiles("bad"), 0u);
  for (int i = 0; i < 6000 && h.metric("proflow_processor_dropped_profiles_total") < 1; ++i)
    std::this_thread::sleep_for(10ms);
  EXPECT_EQ(h.metric("proflow_processor_dropped_profiles_total"), 1);
  EXPECT_EQ(h.metric("proflow_processor_dropped_samples_total"), 3);
  EXPECT_GE(h.metric("proflow_processor_batch_refusal_splits_total"), 1);
}

TEST(BatchRefusalSplit, OnlyTheRefusedProfileIsDroppedFromAMergedResource) {
  Harness h(5, /*durable=*/false);
  // One service, so one resource holds all five profiles; the second is the one refused.
  ASSERT_TRUE(h.push("svc", {makeProfile(1, 0), makeProfile(PickySink::kBadSamples, 1), makeProfile(2, 2)}).isOk());
  ASSERT_TRUE(h.push("svc", {makeProfile(3, 3), makeProfile(4, 4)}).isOk());

  ASSERT_TRUE(h.sink->waitProfiles("svc", 4));
  EXPECT_EQ(h.sink->samples("svc"), 1u + 2 + 3 + 4);
  for (int i = 0; i < 6000 && h.metric("proflow_processor_dropped_profiles_total") < 1; ++i)
    std::this_thread::sleep_for(10ms);
  EXPECT_EQ(h.metric("proflow_processor_dropped_profiles_total"), 1);
  EXPECT_EQ(h.metric("proflow_processor_dropped_samples_total"), PickySink::kBadSamples);
  EXPECT_EQ(h.metric("proflow_processor_batch_buffered_profiles"), 0);
}

TEST(BatchRefusalSplit, WaitingCallersSharingARefusedFlushEachGetTheirOwnAnswer) {
  Harness h(1000, /*durable=*/true);
  ASSERT_TRUE(h.processor->waitsForFlush());
  h.sink->hold(true);
  std::thread first([&] { EXPECT_TRUE(h.push("first", {makeProfile(1, 0)}).isOk()); });
  h.sink->waitInFlight();  // the first flush is in the downstream: the next two merge into one
  Status good, bad;
  std::thread good_caller([&] { good = h.push("good", {makeProfile(2, 1)}); });
  std::thread bad_caller([&] { bad = h.push("bad", {makeProfile(3, 2)}); });
  while (h.processor->waitingCallers() < 3) std::this_thread::yield();
  h.sink->hold(false);
  first.join();
  good_caller.join();
  bad_caller.join();
  EXPECT_TRUE(good.isOk()) << good.toString();
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument) << bad.toString();
  EXPECT_EQ(h.sink->profiles("good"), 1u);
  EXPECT_EQ(h.sink->profiles("bad"), 0u);
}

}  // namespace
}  // namespace proflow::processors::batch
