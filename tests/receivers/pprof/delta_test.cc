// computeDelta() on crafted profiles: priming, differences keyed by addresses (not location ids),
// labels, function names without addresses, resets, pass-through of non-cumulative types, bounds.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <map>

#include "receivers/pprof/delta.h"

namespace proflow::receivers::pprof {
namespace {

using ::proflow::pprof::Profile;

// Builds a pprof with fresh location/function ids per instance (ids start at `id_base`), the way two
// captures of one process number things differently.
class Maker {
 public:
  Maker(std::vector<std::pair<std::string, std::string>> types, int64_t time_nanos, uint64_t id_base = 1)
      : next_id_(id_base) {
    p.add_string_table("");
    for (const auto& [t, u] : types) {
      auto* st = p.add_sample_type();
      st->set_type(s(t));
      st->set_unit(s(u));
    }
    p.set_time_nanos(time_nanos);
  }

  int64_t s(const std::string& v) {
    auto [it, inserted] = strings_.emplace(v, p.string_table_size());
    if (inserted) p.add_string_table(v);
    return it->second;
  }

  // A frame: by address, or (address 0) by function name only.
  uint64_t frame(uint64_t address, const std::string& function = "") {
    auto* l = p.add_location();
    l->set_id(next_id_++);
    l->set_address(address);
    if (!function.empty()) {
      auto* f = p.add_function();
      f->set_id(next_id_++);
      f->set_name(s(function));
      auto* line = l->add_line();
      line->set_function_id(f->id());
      line->set_line(7);
    }
    return l->id();
  }

  Maker& sample(std::vector<uint64_t> location_ids, std::vector<int64_t> values,
                std::vector<std::pair<std::string, std::string>> labels = {}) {
    auto* smp = p.add_sample();
    for (auto id : location_ids) smp->add_location_id(id);
    for (auto v : values) smp->add_value(v);
    for (const auto& [k, v] : labels) {
      auto* l = smp->add_label();
      l->set_key(s(k));
      l->set_str(s(v));
    }
    return *this;
  }

  Profile p;

 private:
  uint64_t next_id_;
  std::map<std::string, int64_t> strings_;
};

const std::vector<std::pair<std::string, std::string>> kHeapTypes = {
    {"alloc_objects", "count"}, {"alloc_space", "bytes"}, {"inuse_objects", "count"}, {"inuse_space", "bytes"}};

constexpr int64_t kSec = 1000000000;

// Values of the output samples by their leaf address.
std::map<uint64_t, std::vector<int64_t>> byLeafAddress(const Profile& p) {
  std::map<uint64_t, uint64_t> addr;
  for (const auto& l : p.location()) addr[l.id()] = l.address();
  std::map<uint64_t, std::vector<int64_t>> out;
  for (const auto& s : p.sample()) out[addr.at(s.location_id(0))] = {s.value().begin(), s.value().end()};
  return out;
}

// Heap capture with stacks a (0x100 <- 0x900), b (0x200 <- 0x900), c (0x300) as given values.
Profile heap(int64_t t, uint64_t id_base, std::vector<int64_t> a, std::vector<int64_t> b, std::vector<int64_t> c) {
  Maker m(kHeapTypes, t, id_base);
  const uint64_t main = m.frame(0x900);
  m.sample({m.frame(0x100), main}, a);
  m.sample({m.frame(0x200), main}, b);
  if (!c.empty()) m.sample({m.frame(0x300)}, c);
  return m.p;
}

TEST(DeltaTest, FirstCapturePrimesThenDifferencesByAddress) {
  DeltaState st;
  Profile out;
  EXPECT_EQ(computeDelta(heap(10 * kSec, 1, {10, 1000, 2, 200}, {5, 500, 5, 500}, {}), st, &out),
            DeltaOutcome::kPrimed);
  EXPECT_TRUE(st.primed);
  EXPECT_EQ(st.values.size(), 2u);

  // Different location ids (base 50), same addresses. b did not allocate and has nothing in use: dropped.
  // c is new: forwarded whole.
  Profile second = heap(25 * kSec, 50, {14, 1400, 3, 300}, {5, 500, 0, 0}, {1, 64, 1, 64});
  ASSERT_EQ(computeDelta(second, st, &out), DeltaOutcome::kDelta);
  auto got = byLeafAddress(out);
  ASSERT_EQ(got.size(), 2u) << out.DebugString();
  EXPECT_EQ(got[0x100], (std::vector<int64_t>{4, 400, 3, 300}));  // alloc_* differenced, inuse_* as is
  EXPECT_EQ(got[0x300], (std::vector<int64_t>{1, 64, 1, 64}));
  EXPECT_EQ(out.time_nanos(), 10 * kSec);      // window start = previous capture
  EXPECT_EQ(out.duration_nanos(), 15 * kSec);  // gap between captures
  // Only the frames of kept samples remain.
  EXPECT_EQ(out.location_size(), 3);

  // Third capture: b allocates again but has nothing in use; zero inuse stays, alloc difference shows.
  Profile third = heap(40 * kSec, 100, {14, 1400, 0, 0}, {6, 600, 0, 0}, {1, 64, 1, 64});
  ASSERT_EQ(computeDelta(third, st, &out), DeltaOutcome::kDelta);
  got = byLeafAddress(out);
  EXPECT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0x200], (std::vector<int64_t>{1, 100, 0, 0}));
  EXPECT_EQ(got[0x300], (std::vector<int64_t>{0, 0, 1, 64}));  // in use only: kept
  for (const auto& s : out.sample())
    for (auto v : s.value()) EXPECT_GE(v, 0);
}

TEST(DeltaTest, CounterWentDownRePrimesInsteadOfForwardingNegatives) {
  DeltaState st;
  Profile out;
  computeDelta(heap(1 * kSec, 1, {10, 1000, 0, 0}, {5, 500, 0, 0}, {}), st, &out);
  ASSERT_EQ(computeDelta(heap(2 * kSec, 1, {12, 1200, 0, 0}, {5, 500, 0, 0}, {}), st, &out), DeltaOutcome::kDelta);
  // Process restarted: a's counter is below the baseline.
  out.Clear();
  EXPECT_EQ(computeDelta(heap(3 * kSec, 1, {1, 100, 0, 0}, {9, 900, 0, 0}, {}), st, &out), DeltaOutcome::kReset);
  EXPECT_EQ(out.sample_size(), 0);
  // The next capture differences against the re-primed baseline.
  ASSERT_EQ(computeDelta(heap(4 * kSec, 1, {3, 300, 0, 0}, {9, 900, 0, 0}, {}), st, &out), DeltaOutcome::kDelta);
  auto got = byLeafAddress(out);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0x100], (std::vector<int64_t>{2, 200, 0, 0}));
  EXPECT_EQ(out.duration_nanos(), 1 * kSec);
}

TEST(DeltaTest, VanishedCountedKeyMeansRestart) {
  DeltaState st;
  Profile out;
  computeDelta(heap(1 * kSec, 1, {10, 1000, 0, 0}, {5, 500, 0, 0}, {0, 0, 1, 8}), st, &out);
  // c had no allocations counted (in use only): its absence alone is no restart.
  ASSERT_EQ(computeDelta(heap(2 * kSec, 1, {12, 1200, 0, 0}, {6, 600, 0, 0}, {}), st, &out), DeltaOutcome::kDelta);
  // b (counted) is gone while a grew: the counters started over in a new process.
  Maker m(kHeapTypes, 3 * kSec);
  m.sample({m.frame(0x100), m.frame(0x900)}, {50, 5000, 0, 0});
  EXPECT_EQ(computeDelta(m.p, st, &out), DeltaOutcome::kReset);
  EXPECT_EQ(st.values.size(), 1u);
}

TEST(DeltaTest, NonCumulativeProfilesPassThroughUnchanged) {
  for (auto types : {std::vector<std::pair<std::string, std::string>>{{"goroutine", "count"}},
                     std::vector<std::pair<std::string, std::string>>{{"samples", "count"}, {"cpu", "nanoseconds"}}}) {
    DeltaState st;
    Maker m(types, 5 * kSec);
    std::vector<int64_t> v(types.size(), 3);
    m.sample({m.frame(0x10)}, v).sample({m.frame(0x20)}, v);
    m.p.set_duration_nanos(kSec);
    Profile out;
    for (int i = 0; i < 2; ++i) {
      ASSERT_EQ(computeDelta(m.p, st, &out), DeltaOutcome::kPassThrough);
      EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(out, m.p));
    }
    EXPECT_FALSE(st.primed);
  }
}

TEST(DeltaTest, MutexDelayKeyedByLabelsInAnyOrderAndDuplicatesSummed) {
  const std::vector<std::pair<std::string, std::string>> types = {{"contentions", "count"}, {"delay", "nanoseconds"}};
  DeltaState st;
  Profile out;
  {
    Maker m(types, 1 * kSec, 1);
    const uint64_t a = m.frame(0xa0);
    m.sample({a}, {2, 20}, {{"x", "1"}, {"y", "2"}}).sample({a}, {1, 10}, {{"x", "1"}, {"y", "2"}});  // duplicate
    m.sample({a}, {7, 70}, {{"x", "other"}});
    ASSERT_EQ(computeDelta(m.p, st, &out), DeltaOutcome::kPrimed);
    EXPECT_EQ(st.values.size(), 2u);
  }
  Maker m(types, 2 * kSec, 40);
  const uint64_t a = m.frame(0xa0);
  m.sample({a}, {5, 50}, {{"y", "2"}, {"x", "1"}});  // same labels, other order
  m.sample({a}, {7, 70}, {{"x", "other"}});          // unchanged: dropped
  ASSERT_EQ(computeDelta(m.p, st, &out), DeltaOutcome::kDelta);
  ASSERT_EQ(out.sample_size(), 1) << out.DebugString();
  EXPECT_EQ(out.sample(0).value(0), 2);
  EXPECT_EQ(out.sample(0).value(1), 20);
  EXPECT_EQ(out.sample(0).label_size(), 2);
}

TEST(DeltaTest, LocationsWithoutAddressesAreKeyedByFunctionName) {
  const std::vector<std::pair<std::string, std::string>> types = {{"contentions", "count"}, {"delay", "nanoseconds"}};
  DeltaState st;
  Profile out;
  {
    Maker m(types, 1 * kSec, 1);
    m.sample({m.frame(0, "lock"), m.frame(0, "main")}, {1, 100});
    m.sample({m.frame(0, "wait"), m.frame(0, "main")}, {1, 100});
    computeDelta(m.p, st, &out);
  }
  Maker m(types, 2 * kSec, 70);
  m.sample({m.frame(0, "wait"), m.frame(0, "main")}, {1, 100});  // listed first now, other ids
  m.sample({m.frame(0, "lock"), m.frame(0, "main")}, {4, 400});
  ASSERT_EQ(computeDelta(m.p, st, &out), DeltaOutcome::kDelta);
  ASSERT_EQ(out.sample_size(), 1);
  EXPECT_EQ(out.sample(0).value(0), 3);
  // Its functions survive pruning: lock and main.
  EXPECT_EQ(out.function_size(), 2);
  EXPECT_EQ(out.location_size(), 2);
}

TEST(DeltaTest, TooManyKeysDropsStateAndSampleTypeChangeRePrimes) {
  DeltaState st;
  Profile out;
  DeltaOptions small;
  small.max_keys = 2;
  EXPECT_EQ(computeDelta(heap(1, 1, {1, 1, 0, 0}, {1, 1, 0, 0}, {1, 1, 0, 0}), st, &out, small),
            DeltaOutcome::kTooManyKeys);
  EXPECT_FALSE(st.primed);
  EXPECT_TRUE(st.values.empty());
  EXPECT_EQ(computeDelta(heap(2, 1, {1, 1, 0, 0}, {1, 1, 0, 0}, {}), st, &out, small), DeltaOutcome::kPrimed);

  // Same stacks, but the profile now has other sample types: a new baseline, not a difference.
  Maker m({{"alloc_objects", "count"}, {"alloc_space", "bytes"}}, 3);
  m.sample({m.frame(0x100), m.frame(0x900)}, {5, 5});
  EXPECT_EQ(computeDelta(m.p, st, &out, small), DeltaOutcome::kPrimed);
}

TEST(DeltaTest, MissingTimeUsesCaptureClock) {
  DeltaState st;
  Profile out;
  DeltaOptions o;
  o.now_nanos = 100;
  computeDelta(heap(0, 1, {1, 1, 0, 0}, {1, 1, 0, 0}, {}), st, &out, o);
  o.now_nanos = 350;
  ASSERT_EQ(computeDelta(heap(0, 1, {2, 2, 0, 0}, {1, 1, 0, 0}, {}), st, &out, o), DeltaOutcome::kDelta);
  EXPECT_EQ(out.time_nanos(), 100);
  EXPECT_EQ(out.duration_nanos(), 250);
}

}  // namespace
}  // namespace proflow::receivers::pprof
