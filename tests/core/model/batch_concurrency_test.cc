// The lazily materialized request under concurrent callers: built once, the same object for all,
// whatever thread asks first (run under ThreadSanitizer with the `concurrency` label).
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>
#include <vector>

#include "core/model/batch.h"
#include "core/flat/flat_decode.h"
#include "tests/support/profile_builder.h"

namespace proflow {
namespace {

constexpr int kThreads = 8;

Batch decodedBatch() {
  const otlp::Request r = testing::makeRequest("svc", {testing::makeProfile(200, 3), testing::makeProfile(50, 4)});
  auto data = std::make_shared<flat::Batch>();
  EXPECT_TRUE(flat::decode(r.SerializeAsString(), data.get()).request.isOk());
  return Batch(std::shared_ptr<const flat::Batch>(std::move(data)));
}

// Runs fn(i) on kThreads threads released at once.
template <class Fn>
void together(Fn fn) {
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      while (!go.load()) std::this_thread::yield();
      fn(i);
    });
  go = true;
  for (auto& t : threads) t.join();
}

TEST(BatchConcurrency, RequestIsMaterializedOnceForConcurrentCallers) {
  for (int round = 0; round < 20; ++round) {
    const Batch shared = decodedBatch();
    std::vector<const otlp::Request*> seen(kThreads);
    std::vector<uint64_t> samples(kThreads);
    together([&](int i) {
      const Batch mine = shared;  // each caller holds its own copy of the batch, as consumers do
      const otlp::Request& r = mine.request();
      seen[static_cast<size_t>(i)] = &r;
      uint64_t n = 0;
      for (const auto& p : r.resource_profiles(0).scope_profiles(0).profiles()) n += static_cast<uint64_t>(p.samples_size());
      samples[static_cast<size_t>(i)] = n;
    });
    EXPECT_EQ(std::set<const otlp::Request*>(seen.begin(), seen.end()).size(), 1u) << "round " << round;
    for (uint64_t n : samples) EXPECT_EQ(n, 250u);
  }
}

TEST(BatchConcurrency, ARequestIsConvertedToFlatDataOnceForConcurrentReaders) {
  for (int round = 0; round < 20; ++round) {
    otlp::Request request = decodedBatch().request();
    request.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles()->RemoveLast();
    const Batch edited(std::move(request));
    std::vector<const flat::Batch*> seen(kThreads);
    together([&](int i) {
      const Batch mine = edited;
      seen[static_cast<size_t>(i)] = &mine.data();
      EXPECT_EQ(mine.counts().samples, 200u);
    });
    EXPECT_EQ(std::set<const flat::Batch*>(seen.begin(), seen.end()).size(), 1u) << "round " << round;
  }
}

}  // namespace
}  // namespace proflow
