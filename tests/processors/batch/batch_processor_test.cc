#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

#include <atomic>
#include <map>
#include <set>
#include <thread>

#include <google/protobuf/util/message_differencer.h>

#include "core/config/config_loader.h"
#include "core/flat/flat_decode.h"
#include "tests/support/request_merger.h"
#include "core/telemetry/metrics.h"
#include "processors/batch/batch_processor.h"
#include "processors/batch/factory.h"
#include "tests/core/flat/test_requests.h"
#include "tests/processors/batch/scripted_sink.h"
#include "tests/support/component_config.h"
#include "tests/support/profile_builder.h"
#include "tests/support/flat_request.h"

namespace proflow::processors::batch {
namespace {

using namespace std::chrono_literals;
using ::proflow::testing::dictionaryProblems;
using ::proflow::testing::makeProfile;
using ::proflow::testing::makeRequest;
using ::proflow::testing::ProfileSpec;
using ::proflow::testing::stackFrames;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

struct Harness {
  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry telemetry{registry, ComponentKind::kProcessor, "batch"};
  std::shared_ptr<ScriptedSink> sink = std::make_shared<ScriptedSink>();
  NullHost host;
  std::unique_ptr<BatchProcessor> processor;

  explicit Harness(BatchProcessorConfig c, bool durable_sink = false) {
    sink->durable = durable_sink;
    processor = std::make_unique<BatchProcessor>(batchTestSettings(&telemetry), c, sink);
    EXPECT_TRUE(processor->start(host).isOk());
  }
  double metric(const std::string& name) { return registry.value(name, {{"processor", "batch"}}); }
  // Waits until a counter reaches `v` (liveness bound only).
  bool waitMetric(const std::string& name, double v) {
    for (int i = 0; i < 6000 && metric(name) < v; ++i) std::this_thread::sleep_for(10ms);
    return metric(name) >= v;
  }
  Status push(const std::string& service, std::vector<ProfileSpec> profiles) {
    return processor->consume(::proflow::testing::batchOf(makeRequest(service, profiles)));
  }
};

BatchProcessorConfig sizeOnly(uint32_t size, uint32_t max = 0) {
  BatchProcessorConfig c;
  c.send_batch_size = size;
  c.send_batch_max_size = max;
  c.timeout = std::chrono::hours(1);  // never fires during a test
  c.shards = 1;                        // one request holds every resource, as the tests expect
  return c;
}

TEST(BatchProcessor, FlushesWhenSendBatchSizeIsReached) {
  Harness h(sizeOnly(4));
  ASSERT_TRUE(h.push("a", {makeProfile(1, 0), makeProfile(1, 1)}).isOk());
  ASSERT_TRUE(h.push("a", {makeProfile(1, 2)}).isOk());
  // 3 < 4 profiles and the timeout is an hour away: nothing may have been sent.
  EXPECT_EQ(h.sink->attempts(), 0);
  EXPECT_EQ(h.metric("proflow_processor_batch_buffered_profiles"), 3);
  ASSERT_TRUE(h.push("a", {makeProfile(1, 3)}).isOk());
  ASSERT_TRUE(h.sink->waitFor([&] { return h.sink->deliveredProfilesLocked() == 4; }));
  auto got = h.sink->delivered();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].counts().profiles, 4u);
  EXPECT_EQ(got[0].counts().resources, 1u);  // same service: one resource
  h.processor->shutdown(Deadline::clock::now() + 30s);
}

TEST(BatchProcessor, MergesRealRequestsAsRequestMergerDid) {
  // Converted pprof fixtures, agent-shaped requests and one that sets every field, arriving as the
  // OTLP receiver hands them over (decoded into flat batches).
  std::vector<otlp::Request> inputs;
  for (auto& [name, r] : flat::testing::corpus()) inputs.push_back(r);
  for (uint32_t seed = 0; seed < 4; ++seed) inputs.push_back(flat::testing::agentRequest(2, 60, seed));
  uint64_t profiles = 0;
  for (const auto& r : inputs) profiles += countRequest(r).profiles;
  Harness h(sizeOnly(static_cast<uint32_t>(profiles)));
  for (const auto& r : inputs) {
    auto data = std::make_shared<flat::Batch>();
    ASSERT_TRUE(flat::decode(r.SerializeAsString(), data.get()).request.isOk());
    ASSERT_TRUE(h.processor->consume(Batch(std::shared_ptr<const flat::Batch>(std::move(data)))).isOk());
  }
  ASSERT_TRUE(h.sink->waitFor([&] { return h.sink->deliveredProfilesLocked() == profiles; }));
  ASSERT_EQ(h.sink->delivered().size(), 1u);

  otlp::Request want;
  RequestMerger merger(&want);
  for (const auto& r : inputs) merger.append(r);
  std::string diff;
  google::protobuf::util::MessageDifferencer d;
  d.ReportDifferencesToString(&diff);
  EXPECT_TRUE(d.Compare(want, ::proflow::testing::requestOf(h.sink->delivered().at(0)))) << diff.substr(0, 4000);
  h.processor->shutdown(Deadline::clock::now() + 30s);
}

TEST(BatchProcessor, FlushesAfterTheTimeoutSinceTheFirstBatch) {
  BatchProcessorConfig c;
  c.send_batch_size = 1000;
  c.timeout = 20ms;
  Harness h(c);
  ASSERT_TRUE(h.push("a", {makeProfile(2)}).isOk());
  ASSERT_TRUE(h.push("b", {makeProfile(3)}).isOk());
  // Far below send_batch_size: only the timer can send it, while the processor keeps running.
  ASSERT_TRUE(h.sink->waitFor([&] { return h.sink->deliveredProfilesLocked() == 2; }));
  ASSERT_TRUE(h.push("c", {makeProfile(1)}).isOk());
  ASSERT_TRUE(h.sink->waitFor([&] { return h.sink->deliveredProfilesLocked() == 3; }));
  h.processor->shutdown(Deadline::clock::now() + 30s);
}

TEST(BatchProcessor, MergedRequestHasOneConsistentDictionary) {
  Harness h(sizeOnly(4));
  std::vector<otlp::Request> inputs = {makeRequest("checkout", {makeProfile(4, 0)}),
                                       makeRequest("payments", {makeProfile(4, 1), makeProfile(2, 2)}),
                                       makeRequest("checkout", {makeProfile(3, 3)})};
  for (const auto& r : inputs) ASSERT_TRUE(h.processor->consume(::proflow::testing::batchOf(otlp::Request(r))).isOk());
  ASSERT_TRUE(h.sink->waitFor([&] { return h.sink->deliveredProfilesLocked() == 4; }));
  const otlp::Request& merged = ::proflow::testing::requestOf(h.sink->delivered().at(0));

  EXPECT_THAT(dictionaryProblems(merged), IsEmpty());
  // "main" is in every input dictionary but once in the merged one.
  int mains = 0;
  for (const auto& s : merged.dictionary().string_table()) mains += s == "main";
  EXPECT_EQ(mains, 1);
  // Both checkout batches landed in one resource; payments has its own.
  ASSERT_EQ(merged.resource_profiles_size(), 2);
  EXPECT_EQ(testing::serviceName(merged, 0), "checkout");
  EXPECT_EQ(testing::serviceName(merged, 1), "payments");
  // Every sample still resolves to the frames and value it had.
  std::vector<std::pair<std::vector<std::string>, int64_t>> want, got;
  auto collect = [](const otlp::Request& r, auto& out) {
    for (const auto& rp : r.resource_profiles())
      for (const auto& sp : rp.scope_profiles())
        for (const auto& p : sp.profiles())
          for (const auto& s : p.samples()) out.emplace_back(stackFrames(r.dictionary(), s.stack_index()), s.values(0));
  };
  for (const auto& r : inputs) collect(r, want);
  collect(merged, got);
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
  h.processor->shutdown(Deadline::clock::now() + 30s);
}

TEST(BatchProcessor, ShutdownFlushesWhatIsPending) {
  Harness h(sizeOnly(1000));
  ASSERT_TRUE(h.push("a", {makeProfile(1)}).isOk());
  ASSERT_TRUE(h.push("b", {makeProfile(1), makeProfile(1)}).isOk());
  EXPECT_EQ(h.sink->attempts(), 0);
  h.processor->shutdown(Deadline::clock::now() + 30s);
  EXPECT_EQ(h.sink->deliveredProfiles(), 3u);
  EXPECT_EQ(h.sink->delivered().size(), 1u);
  EXPECT_EQ(h.metric("proflow_processor_dropped_profiles_total"), 0);
  Status after = h.push("c", {makeProfile(1)});
  EXPECT_EQ(after.code(), StatusCode::kUnavailable);
}

TEST(BatchProcessor, RetryableRefusalKeepsTheDataAndRetries) {
  Harness h(sizeOnly(1));
  h.sink->script({Status::unavailable("backend restarting"), Status::exhausted("slow down")});
  ASSERT_TRUE(h.push("a", {makeProfile(5)}).isOk());
  ASSERT_TRUE(h.sink->waitFor([&] { return h.sink->deliveredProfilesLocked() == 1; }));
  EXPECT_EQ(h.sink->attempts(), 3);
  EXPECT_EQ(h.metric("proflow_processor_batch_retries_total"), 2);
  auto got = h.sink->delivered();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].counts().samples, 5u);
  h.processor->shutdown(Deadline::clock::now() + 30s);
  EXPECT_EQ(h.metric("proflow_processor_dropped_profiles_total"), 0);
}

TEST(BatchProcessor, RefusesNewBatchesWhenTheBufferIsFull) {
  Harness h(sizeOnly(2, 2));  // cap: (1 shard + 3) x 2 = 8 profiles
  h.sink->script({}, Status::unavailable("down"));
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(h.push("a", {makeProfile(1, i), makeProfile(1, i)}).isOk()) << i;
  Status s = h.push("a", {makeProfile(1)});
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_TRUE(s.retryable());
  EXPECT_THAT(s.message(), HasSubstr("buffer is full"));
  EXPECT_EQ(h.metric("proflow_processor_batch_buffered_profiles"), 8);

  // The downstream recovers: everything held is delivered and new data is taken again.
  h.sink->script({}, Status::ok());
  ASSERT_TRUE(h.sink->waitFor([&] { return h.sink->deliveredProfilesLocked() == 8; }));
  for (int tries = 0; tries < 6000; ++tries) {
    s = h.push("a", {makeProfile(1)});
    if (s.code() != StatusCode::kResourceExhausted) break;
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_TRUE(s.isOk()) << s.toString();
  h.processor->shutdown(Deadline::clock::now() + 30s);
  EXPECT_EQ(h.sink->deliveredProfiles(), 9u);
  EXPECT_EQ(h.metric("proflow_processor_dropped_profiles_total"), 0);
}

TEST(BatchProcessor, ByteCapRefusesButAlwaysTakesOneBatchWhenEmpty) {
  BatchProcessorConfig c = sizeOnly(1000);
  c.max_buffered_bytes = config::ByteSize(1);  // smaller than any batch
  Harness h(c);
  EXPECT_TRUE(h.push("a", {makeProfile(3)}).isOk());
  EXPECT_EQ(h.push("a", {makeProfile(3)}).code(), StatusCode::kResourceExhausted);
  h.processor->shutdown(Deadline::clock::now() + 30s);
  EXPECT_EQ(h.sink->deliveredProfiles(), 1u);
}

TEST(BatchProcessor, PermanentRefusalIsDroppedAndCounted) {
  Harness h(sizeOnly(1));
  h.sink->script({Status::invalid("schema mismatch")});
  ASSERT_TRUE(h.push("a", {makeProfile(4)}).isOk());
  ASSERT_TRUE(h.waitMetric("proflow_processor_dropped_profiles_total", 1));
  EXPECT_EQ(h.metric("proflow_processor_dropped_samples_total"), 4);
  ASSERT_TRUE(h.push("b", {makeProfile(2)}).isOk());  // the next one goes through
  ASSERT_TRUE(h.sink->waitFor([&] { return h.sink->deliveredProfilesLocked() == 1; }));
  EXPECT_EQ(h.sink->attempts(), 2);  // no retry of the permanent failure
  h.processor->shutdown(Deadline::clock::now() + 30s);
}

TEST(BatchProcessor, ShutdownDeadlineDropsWhatCannotBeDeliveredAndCountsIt) {
  Harness h(sizeOnly(1000));
  h.sink->script({}, Status::unavailable("down"));
  ASSERT_TRUE(h.push("a", {makeProfile(2), makeProfile(3)}).isOk());
  h.processor->shutdown(Deadline::clock::now());
  EXPECT_EQ(h.metric("proflow_processor_dropped_profiles_total"), 2);
  EXPECT_EQ(h.metric("proflow_processor_dropped_samples_total"), 5);
  EXPECT_EQ(h.metric("proflow_processor_batch_buffered_profiles"), 0);
}

TEST(BatchProcessor, SplitsRequestsLargerThanSendBatchMaxSize) {
  BatchProcessorConfig c = sizeOnly(0, 3);  // size trigger off; max 3 per request
  Harness h(c);
  std::vector<ProfileSpec> seven;
  for (int i = 0; i < 7; ++i) seven.push_back(makeProfile(2, i));
  ASSERT_TRUE(h.push("a", seven).isOk());
  h.processor->shutdown(Deadline::clock::now() + 30s);
  auto got = h.sink->delivered();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].counts().profiles, 3u);
  EXPECT_EQ(got[1].counts().profiles, 3u);
  EXPECT_EQ(got[2].counts().profiles, 1u);
  for (const auto& b : got) EXPECT_THAT(dictionaryProblems(::proflow::testing::requestOf(b)), IsEmpty());
}

TEST(BatchProcessor, ConcurrentProducersLoseNothing) {
  Harness h(sizeOnly(16, 16));
  constexpr int kThreads = 8, kPerThread = 50;
  std::atomic<int> refusals{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        ProfileSpec p;
        p.samples.push_back({{"f" + std::to_string(i % 7), "main"}, t * 1000 + i});
        // A refusal is backpressure: the producer retries, as a receiver's client would.
        while (true) {
          Status s = h.push("svc" + std::to_string(t), {p});
          if (s.isOk()) break;
          ASSERT_EQ(s.code(), StatusCode::kResourceExhausted) << s.toString();
          refusals++;
          std::this_thread::yield();
        }
      }
    });
  for (auto& t : threads) t.join();
  h.processor->shutdown(Deadline::clock::now() + 60s);

  std::multiset<int64_t> values;
  for (const auto& b : h.sink->delivered()) {
    EXPECT_LE(b.counts().profiles, 16u);
    const otlp::Request req = ::proflow::testing::requestOf(b);
    EXPECT_THAT(dictionaryProblems(req), IsEmpty());
    for (int r = 0; r < req.resource_profiles_size(); ++r)
      for (const auto& sp : req.resource_profiles(r).scope_profiles())
        for (const auto& p : sp.profiles()) {
          values.insert(p.samples(0).values(0));
          // The value encodes its producer: it must sit under that producer's resource.
          EXPECT_EQ(testing::serviceName(req, r), "svc" + std::to_string(p.samples(0).values(0) / 1000));
        }
  }
  ASSERT_EQ(values.size(), static_cast<size_t>(kThreads * kPerThread));
  std::multiset<int64_t> want;
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kPerThread; ++i) want.insert(t * 1000 + i);
  EXPECT_EQ(values, want);
  EXPECT_EQ(h.metric("proflow_processor_dropped_profiles_total"), 0);
}

// Resources spread over shards; each resource's profiles reach the downstream in the order sent.
TEST(BatchProcessor, ShardsKeepTheOrderWithinAResource) {
  BatchProcessorConfig c = sizeOnly(3);
  c.shards = 4;
  Harness h(c);
  constexpr int kServices = 6, kEach = 9;
  for (int i = 0; i < kEach; ++i)
    for (int svc = 0; svc < kServices; ++svc) {
      ProfileSpec p = makeProfile(1, i);
      p.samples[0].value = svc * 1000 + i;
      Status s;
      // A refusal is backpressure (the cap is 7 x 3 profiles): resend, as a client would.
      while ((s = h.push("svc" + std::to_string(svc), {p})).code() == StatusCode::kResourceExhausted)
        std::this_thread::yield();
      ASSERT_TRUE(s.isOk()) << s.toString();
    }
  h.processor->shutdown(Deadline::clock::now() + 30s);
  std::map<std::string, std::vector<int64_t>> seen;
  for (const auto& b : h.sink->delivered()) {
    const otlp::Request req = ::proflow::testing::requestOf(b);
    for (int r = 0; r < req.resource_profiles_size(); ++r)
      for (const auto& sp : req.resource_profiles(r).scope_profiles())
        for (const auto& p : sp.profiles()) seen[testing::serviceName(req, r)].push_back(p.samples(0).values(0));
  }
  ASSERT_EQ(seen.size(), static_cast<size_t>(kServices));
  for (int svc = 0; svc < kServices; ++svc) {
    std::vector<int64_t> want;
    for (int i = 0; i < kEach; ++i) want.push_back(svc * 1000 + i);
    EXPECT_EQ(seen["svc" + std::to_string(svc)], want) << "svc" << svc;
  }
}

// A batch with resources of several shards is split by shard; nothing is lost or duplicated.
TEST(BatchProcessor, MultiResourceBatchIsSplitAcrossShards) {
  BatchProcessorConfig c = sizeOnly(1000);
  c.shards = 8;
  Harness h(c);
  otlp::Request merged;
  RequestMerger m(&merged);
  for (int svc = 0; svc < 10; ++svc) m.append(makeRequest("svc" + std::to_string(svc), {makeProfile(2, svc)}));
  ASSERT_TRUE(h.processor->consume(::proflow::testing::batchOf(std::move(merged))).isOk());
  h.processor->shutdown(Deadline::clock::now() + 30s);
  std::set<std::string> services;
  uint64_t profiles = 0;
  for (const auto& b : h.sink->delivered()) {
    const otlp::Request req = ::proflow::testing::requestOf(b);
    EXPECT_THAT(dictionaryProblems(req), IsEmpty());
    profiles += b.counts().profiles;
    for (int r = 0; r < req.resource_profiles_size(); ++r) services.insert(testing::serviceName(req, r));
  }
  EXPECT_EQ(profiles, 10u);
  EXPECT_EQ(services.size(), 10u);
  EXPECT_GT(h.sink->delivered().size(), 1u);  // 10 resources in 8 shards land in more than one
}

TEST(BatchProcessor, WaitsForTheFlushWhenTheDownstreamIsDurable) {
  Harness h(sizeOnly(1000), /*durable_sink=*/true);
  EXPECT_TRUE(h.processor->waitsForFlush());
  // Far below send_batch_size and the timeout is an hour away: still, consume() returns only once
  // the downstream holds the data.
  ASSERT_TRUE(h.push("a", {makeProfile(2)}).isOk());
  EXPECT_EQ(h.sink->deliveredProfiles(), 1u);
  EXPECT_EQ(h.metric("proflow_processor_batch_buffered_profiles"), 0);
  h.processor->shutdown(Deadline::clock::now() + 30s);
}

TEST(BatchProcessor, WaitingCallerGetsTheDownstreamRefusal) {
  Harness h(sizeOnly(1000), /*durable_sink=*/true);
  h.sink->script({Status::exhausted("queue full"), Status::invalid("bad")});
  Status s = h.push("a", {makeProfile(2)});
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted) << s.toString();
  s = h.push("a", {makeProfile(2)});
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.toString();
  EXPECT_TRUE(h.push("a", {makeProfile(2)}).isOk());
  EXPECT_EQ(h.sink->deliveredProfiles(), 1u);
  // Nothing is held or dropped by the processor: the callers were told.
  EXPECT_EQ(h.metric("proflow_processor_batch_buffered_profiles"), 0);
  EXPECT_EQ(h.metric("proflow_processor_dropped_profiles_total"), 0);
  h.processor->shutdown(Deadline::clock::now() + 30s);
}

// Callers that arrive while a flush is in flight merge into the next one (group commit).
TEST(BatchProcessor, WaitingCallersShareTheNextFlush) {
  Harness h(sizeOnly(1000), /*durable_sink=*/true);
  h.sink->hold(true);
  std::thread first([&] { EXPECT_TRUE(h.push("a", {makeProfile(1, 0)}).isOk()); });
  while (h.sink->inFlight() == 0) std::this_thread::yield();  // the first flush is in the downstream
  constexpr int kLater = 5;
  std::vector<std::thread> later;
  for (int i = 1; i <= kLater; ++i)
    later.emplace_back([&, i] { EXPECT_TRUE(h.push("a", {makeProfile(1, i)}).isOk()); });
  // Every later caller merged its data and waits before the downstream is released.
  while (h.processor->waitingCallers() < 1 + kLater) std::this_thread::yield();
  h.sink->hold(false);
  first.join();
  for (auto& t : later) t.join();
  auto got = h.sink->delivered();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].counts().profiles, 1u);
  EXPECT_EQ(got[1].counts().profiles, static_cast<uint64_t>(kLater));
  h.processor->shutdown(Deadline::clock::now() + 30s);
}

TEST(BatchProcessor, WaitForFlushFalseKeepsAcknowledgingAtOnce) {
  BatchProcessorConfig c = sizeOnly(1000);
  c.wait_for_flush = "false";
  Harness h(c, /*durable_sink=*/true);
  EXPECT_FALSE(h.processor->waitsForFlush());
  ASSERT_TRUE(h.push("a", {makeProfile(2)}).isOk());
  EXPECT_EQ(h.sink->attempts(), 0);
  h.processor->shutdown(Deadline::clock::now() + 30s);
  EXPECT_EQ(h.sink->deliveredProfiles(), 1u);
  BatchProcessorConfig always = sizeOnly(1000);
  always.wait_for_flush = "true";
  Harness w(always);
  EXPECT_TRUE(w.processor->waitsForFlush());
}

config::ConfigErrors validate(const std::string& yaml) {
  return ::proflow::testing::checkComponentConfig(*makeBatchProcessorFactory(), yaml, "processors.batch");
}

TEST(BatchProcessorConfig, MaxSizeBelowSizeIsAnError) {
  auto errors = validate("send_batch_size: 100\nsend_batch_max_size: 10\ntimeout: 5s\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors.format(), HasSubstr("t.yaml:2:1"));
  EXPECT_THAT(errors.format(), HasSubstr("send_batch_max_size (10) must be 0 or >= send_batch_size (100)"));
  EXPECT_TRUE(validate("send_batch_size: 10\nsend_batch_max_size: 20\nmax_buffered_bytes: 64MiB\n").empty());
  EXPECT_THAT(validate("timeout: soon\n").format(), HasSubstr("expected a duration"));
  EXPECT_THAT(validate("wait_for_flush: sometimes\n").format(),
              HasSubstr("wait_for_flush must be auto, true or false, got 'sometimes'"));
  EXPECT_THAT(validate("shards: 5000\n").format(), HasSubstr("shards must be at most 1024, got 5000"));
  EXPECT_TRUE(validate("shards: 8\nwait_for_flush: true\n").empty());
}

TEST(BatchProcessorConfig, BufferedBytesStayWithinWhatAFlatBatchCanAddress) {
  // A shard's merged batch can hold max_buffered_bytes; its offsets are 32-bit.
  auto errors = validate("timeout: 1s\nmax_buffered_bytes: 5GiB\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors.format(), HasSubstr("t.yaml:2:1"));
  EXPECT_THAT(errors.format(), HasSubstr("max_buffered_bytes must be at most 2GiB"));
  EXPECT_FALSE(validate("max_buffered_bytes: 2049MiB\n").empty());
  EXPECT_TRUE(validate("max_buffered_bytes: 2GiB\n").empty());
}

}  // namespace
}  // namespace proflow::processors::batch
