// Scrape mode end to end against a real Go program serving net/http/pprof on a loopback port:
// cpu/heap/mutex/goroutine arrive with the target's labels, cumulative types as non-negative deltas
// after a priming scrape; a dead target is counted as failing and delivers nothing.
#include <gtest/gtest.h>

#include <set>

#include "core/formats/pprof/pprof_codec.h"
#include "tests/receivers/pprof/go_app.h"
#include "tests/receivers/pprof/harness.h"
#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

namespace proflow::receivers::pprof {
namespace {

PprofReceiverConfig scrapeConfig(const std::string& endpoint, std::vector<std::string> profiles) {
  PprofReceiverConfig c;
  c.endpoint = "";  // no push listener
  c.attributes = {{"deployment.environment", "test"}};
  ScrapeConfig s;
  s.interval = std::chrono::seconds(2);  // cpu: seconds=1
  s.timeout = std::chrono::seconds(10);
  s.jitter = config::Duration(std::chrono::milliseconds(300));
  ScrapeTargetConfig t;
  t.endpoint = endpoint;
  t.profiles = std::move(profiles);
  t.service_name = "goapp";
  t.labels = {{"team", "perf"}};
  s.targets = {t};
  c.scrape = s;
  return c;
}

// Sum of one sample type over a cumulative profile fetched straight from the program.
int64_t cumulativeTotal(int port, const std::string& path, const std::string& type) {
  testing::TempDir dir;
  std::string out;
  EXPECT_EQ(testing::runCommand({"curl", "-sSf", "-o", dir.file("p.pb.gz"),
                                 "http://127.0.0.1:" + std::to_string(port) + path},
                                &out),
            0)
      << "curl failed (is curl installed?): " << out;
  ::proflow::pprof::Profile p;
  Status s = ::proflow::pprof::decodeProfile(testing::readFile(dir.file("p.pb.gz")), &p);
  EXPECT_TRUE(s.isOk()) << s.toString();
  int64_t total = 0;
  for (int i = 0; i < p.sample_type_size(); ++i)
    if (p.string_table(p.sample_type(i).type()) == type)
      for (const auto& s : p.sample()) total += s.value(i);
  return total;
}

bool hasTypes(const std::vector<Batch>& batches, const std::set<std::string>& want) {
  std::set<std::string> got;
  for (const auto& s : seenProfiles(batches)) got.insert(s.type);
  for (const auto& w : want)
    if (!got.count(w)) return false;
  return true;
}

TEST(PprofScrapeTest, GoProgramProfilesArriveAsNonNegativeDeltas) {
  std::string error;
  const std::string bin = testing::pprofAppBinary(&error);
  ASSERT_FALSE(bin.empty()) << error;
  testing::ServingGoApp app(bin);
  ASSERT_GT(app.port(), 0) << app.error();

  Harness h;
  PprofReceiverConfig c = scrapeConfig("http://127.0.0.1:" + std::to_string(app.port()),
                                       {"cpu", "heap", "mutex", "goroutine"});
  ASSERT_EQ(c.scrape->cpuSeconds(), 1);
  auto r = h.make(c);
  ASSERT_TRUE(r->start(h.host).isOk());
  EXPECT_EQ(r->pushPort(), 0);
  // Two scrapes of each cumulative profile are needed (the first only primes): wait for two deltas each.
  const bool arrived = h.sink->waitFor(
      [](const std::vector<Batch>& b) {
        int alloc = 0, delay = 0;
        for (const auto& s : seenProfiles(b)) {
          alloc += s.type == "alloc_space";
          delay += s.type == "delay";
        }
        return alloc >= 2 && delay >= 2 && hasTypes(b, {"cpu", "goroutine"});
      },
      std::chrono::seconds(40));
  r->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(15));
  const auto seen = seenProfiles(h.sink->batches());
  ASSERT_TRUE(arrived) << "profiles seen: " << seen.size();

  for (const auto& s : seen) {
    EXPECT_EQ(s.resource.at("service.name"), "goapp");
    EXPECT_EQ(s.resource.at("team"), "perf");
    EXPECT_EQ(s.resource.at("deployment.environment"), "test");
    EXPECT_GE(s.min_value, 0) << s.type;  // deltas never go negative
    if (s.type == "alloc_space" || s.type == "delay") {
      EXPECT_GT(s.samples, 0) << s.type;   // all-zero samples are dropped, empty deltas not sent
      EXPECT_GT(s.duration_nano, 0u) << s.type;  // the window between two scrapes
      EXPECT_GT(s.time_unix_nano, 0u);
    }
  }
  // The deltas partition the growth after the priming scrape, so together they stay within what the
  // counters hold now (a consistency check; priming and durations above are what tell deltas apart).
  for (const auto& [type, path] : {std::pair<std::string, std::string>{"delay", "/debug/pprof/mutex"},
                                   std::pair<std::string, std::string>{"alloc_space", "/debug/pprof/heap"}}) {
    int64_t sum_of_deltas = 0;
    for (const auto& s : seen)
      if (s.type == type) sum_of_deltas += s.sum;
    EXPECT_GT(sum_of_deltas, 0) << type;
    EXPECT_LE(sum_of_deltas, cumulativeTotal(app.port(), path, type)) << type;
  }
  // Each cumulative profile's first scrape was a baseline only.
  EXPECT_GE(h.metric("proflow_receiver_pprof_delta_primed_total"), 2);
  EXPECT_GE(h.metric("proflow_receiver_pprof_scrapes_succeeded_total"), 6);
  EXPECT_EQ(h.metric("proflow_receiver_pprof_scrapes_failed_total"), 0);
  EXPECT_GT(h.metric("proflow_receiver_bytes_in_total"), 0);
}

TEST(PprofScrapeTest, DeadTargetIsCountedAndDeliversNothing) {
  Harness h;
  const int port = testing::freePort();  // nothing listens there
  PprofReceiverConfig c = scrapeConfig("127.0.0.1:" + std::to_string(port), {"heap", "/debug/pprof/fgprof"});
  c.scrape->interval = std::chrono::seconds(1);
  c.scrape->jitter = config::Duration(std::chrono::milliseconds(0));
  auto r = h.make(c);
  ASSERT_TRUE(r->start(h.host).isOk());
  for (int i = 0; i < 100 && h.metric("proflow_receiver_pprof_scrapes_failed_total") < 4; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  r->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(5));
  EXPECT_GE(h.metric("proflow_receiver_pprof_scrapes_failed_total"), 4);
  EXPECT_EQ(h.metric("proflow_receiver_pprof_scrapes_succeeded_total"), 0);
  EXPECT_TRUE(h.sink->batches().empty());
}

TEST(PprofScrapeTest, ShutdownDuringACpuScrapeAbandonsItAndDeliversNothingAfterwards) {
  std::string error;
  const std::string bin = testing::pprofAppBinary(&error);
  ASSERT_FALSE(bin.empty()) << error;
  testing::ServingGoApp app(bin);
  ASSERT_GT(app.port(), 0) << app.error();
  Harness h;
  PprofReceiverConfig c = scrapeConfig("http://127.0.0.1:" + std::to_string(app.port()), {"cpu"});
  c.scrape->jitter = config::Duration(std::chrono::milliseconds(0));
  auto r = h.make(c);
  ASSERT_TRUE(r->start(h.host).isOk());
  // The CPU request (seconds=1) is running now; give up on it at once.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  r->shutdown(std::chrono::steady_clock::now());
  r.reset();
  // Longer than the CPU recording: the abandoned scrape finished meanwhile and dropped its result.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_TRUE(h.sink->batches().empty());
  EXPECT_EQ(h.metric("proflow_receiver_pprof_scrapes_succeeded_total"), 0);
}

}  // namespace
}  // namespace proflow::receivers::pprof
