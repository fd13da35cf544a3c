// A small lock-free-on-the-hot-path metrics registry rendered as Prometheus text.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace proflow::telemetry {

using Labels = std::vector<std::pair<std::string, std::string>>;

class Counter {
 public:
  void add(uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  uint64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

class Gauge {
 public:
  void set(int64_t v) { value_.store(v, std::memory_order_relaxed); }
  void add(int64_t d) { value_.fetch_add(d, std::memory_order_relaxed); }
  int64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<int64_t> value_{0};
};

// Owns every metric of the process. Registration takes a lock; updates never do. Registering the
// same name and labels twice returns the same object.
class MetricsRegistry {
 public:
  Counter& counter(const std::string& name, const std::string& help, const Labels& labels = {});
  Gauge& gauge(const std::string& name, const std::string& help, const Labels& labels = {});
  // A gauge computed on each scrape (RSS, uptime, ...).
  void callbackGauge(const std::string& name, const std::string& help, const Labels& labels,
                     std::function<double()> fn);

  std::string renderPrometheus() const;

  // For tests and the debug exporter: current value of a counter or gauge, 0 when absent.
  double value(const std::string& name, const Labels& labels = {}) const;

 private:
  enum class Type { kCounter, kGauge };
  struct Series {
    Labels labels;
    Counter* counter = nullptr;
    Gauge* gauge = nullptr;
    std::function<double()> fn;
  };
  struct Family {
    Type type;
    std::string help;
    std::vector<Series> series;
  };
  Series* findSeries(Family& f, const Labels& labels);

  mutable std::mutex mu_;
  std::map<std::string, Family> families_;
  std::deque<Counter> counters_;  // deque: stable addresses
  std::deque<Gauge> gauges_;
};

std::string renderLabels(const Labels& labels);

}  // namespace proflow::telemetry
