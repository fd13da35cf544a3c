// A small lock-free-on-the-hot-path metrics registry rendered as Prometheus text (0.0.4) or
// OpenMetrics text (1.0.0, with exemplars), as the scraper's Accept header asks.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
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

enum class MetricType { kCounter, kGauge };

// An OpenMetrics exemplar: a sample's reference to one observation (a trace, a profile).
struct Exemplar {
  Labels labels;                    // at most 128 UTF-8 code points of names and values in all
  double value = 0;
  std::optional<double> timestamp;  // Unix seconds
};

struct MetricSample {
  Labels labels;
  double value = 0;
  std::optional<Exemplar> exemplar;  // rendered in OpenMetrics on counters only
};

// A family a collector produces on each scrape. `name` is the Prometheus text name: a counter's
// ends in `_total` (OpenMetrics names the family without it). `unit`, when set, is the name's
// last word before `_total` (OpenMetrics `# UNIT`).
struct MetricFamily {
  std::string name;
  MetricType type = MetricType::kCounter;
  std::string help;
  std::string unit;
  std::vector<MetricSample> samples;
};

enum class ExpositionFormat { kPrometheusText, kOpenMetrics };

// The format an Accept header asks for: OpenMetrics when it accepts application/openmetrics-text
// (version 1.0.0, 0.0.1 or none) at least as much as any text/plain, as Prometheus asks; else text.
ExpositionFormat negotiateExposition(std::string_view accept);
const char* expositionContentType(ExpositionFormat format);

// Appends families on each scrape. `exemplars` tells whether this scrape shows exemplars (an
// OpenMetrics one), so a collector choosing "the heaviest since the last scrape" can start anew.
using Collector = std::function<void(std::vector<MetricFamily>& out, bool exemplars)>;

class CollectorHandle;

// Owns every metric of the process. Registration takes a lock; updates never do. Registering the
// same name and labels twice returns the same object.
class MetricsRegistry {
 public:
  Counter& counter(const std::string& name, const std::string& help, const Labels& labels = {});
  Gauge& gauge(const std::string& name, const std::string& help, const Labels& labels = {});
  // A gauge computed on each scrape (RSS, uptime, ...).
  void callbackGauge(const std::string& name, const std::string& help, const Labels& labels,
                     std::function<double()> fn);

  // Series a component computes at scrape time (they come and go, carry exemplars). A collector
  // added under a key already in use replaces the previous one (a component replaced by a reload
  // takes over its series); the handle removes it, and waits for a call in progress, when destroyed.
  // Families of one name from several collectors are rendered as one.
  CollectorHandle addCollector(const std::string& key, Collector fn);

  std::string render(ExpositionFormat format) const;
  std::string renderPrometheus() const { return render(ExpositionFormat::kPrometheusText); }

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
  std::vector<MetricFamily> snapshot(bool exemplars) const;
  void removeCollector(const std::string& key, const void* entry);
  friend class CollectorHandle;

  struct CollectorEntry {
    std::mutex mu;  // held while the collector runs and while the handle clears it
    Collector fn;
  };
  std::map<std::string, std::shared_ptr<CollectorEntry>> collectors_;  // under mu_

  mutable std::mutex mu_;
  std::map<std::string, Family> families_;
  std::deque<Counter> counters_;  // deque: stable addresses
  std::deque<Gauge> gauges_;
};

class CollectorHandle {
 public:
  CollectorHandle() = default;
  CollectorHandle(CollectorHandle&& other) noexcept { *this = std::move(other); }
  CollectorHandle& operator=(CollectorHandle&& other) noexcept;
  ~CollectorHandle() { reset(); }
  void reset();

 private:
  friend class MetricsRegistry;
  MetricsRegistry* registry_ = nullptr;
  std::string key_;
  std::shared_ptr<MetricsRegistry::CollectorEntry> entry_;
};

std::string renderLabels(const Labels& labels);
// The families in `format`: Prometheus text 0.0.4 (no exemplars) or OpenMetrics 1.0.0 (counter
// families named without `_total`, samples with it, exemplars on counters, `# EOF` last).
std::string renderFamilies(const std::vector<MetricFamily>& families, ExpositionFormat format);

}  // namespace proflow::telemetry
