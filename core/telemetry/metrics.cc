#include "core/telemetry/metrics.h"

#include <utility>

namespace proflow::telemetry {

std::string renderLabels(const Labels& labels) {
  if (labels.empty()) return "";
  std::string out = "{";
  bool first = true;
  for (const auto& [k, v] : labels) {
    if (!first) out += ',';
    first = false;
    out += k;
    out += "=\"";
    for (char c : v) {
      if (c == '\\' || c == '"') out += '\\';
      if (c == '\n') {
        out += "\\n";
        continue;
      }
      out += c;
    }
    out += '"';
  }
  out += '}';
  return out;
}

MetricsRegistry::Series* MetricsRegistry::findSeries(Family& f, const Labels& labels) {
  for (auto& s : f.series)
    if (s.labels == labels) return &s;
  return nullptr;
}

Counter& MetricsRegistry::counter(const std::string& name, const std::string& help, const Labels& labels) {
  std::lock_guard lock(mu_);
  auto& f = families_.try_emplace(name, Family{Type::kCounter, help, {}}).first->second;
  if (auto* s = findSeries(f, labels); s && s->counter) return *s->counter;
  counters_.emplace_back();
  f.series.push_back({labels, &counters_.back(), nullptr, {}});
  return counters_.back();
}

Gauge& MetricsRegistry::gauge(const std::string& name, const std::string& help, const Labels& labels) {
  std::lock_guard lock(mu_);
  auto& f = families_.try_emplace(name, Family{Type::kGauge, help, {}}).first->second;
  if (auto* s = findSeries(f, labels); s && s->gauge) return *s->gauge;
  gauges_.emplace_back();
  f.series.push_back({labels, nullptr, &gauges_.back(), {}});
  return gauges_.back();
}

void MetricsRegistry::callbackGauge(const std::string& name, const std::string& help, const Labels& labels,
                                    std::function<double()> fn) {
  std::lock_guard lock(mu_);
  auto& f = families_.try_emplace(name, Family{Type::kGauge, help, {}}).first->second;
  if (auto* s = findSeries(f, labels)) {
    s->fn = std::move(fn);
    return;
  }
  f.series.push_back({labels, nullptr, nullptr, std::move(fn)});
}

CollectorHandle MetricsRegistry::addCollector(const std::string& key, Collector fn) {
  auto entry = std::make_shared<CollectorEntry>();
  entry->fn = std::move(fn);
  {
    std::lock_guard lock(mu_);
    collectors_[key] = entry;
  }
  CollectorHandle h;
  h.registry_ = this;
  h.key_ = key;
  h.entry_ = std::move(entry);
  return h;
}

void MetricsRegistry::removeCollector(const std::string& key, const void* entry) {
  std::lock_guard lock(mu_);
  auto it = collectors_.find(key);
  if (it != collectors_.end() && it->second.get() == entry) collectors_.erase(it);
}

CollectorHandle& CollectorHandle::operator=(CollectorHandle&& other) noexcept {
  if (this != &other) {
    reset();
    registry_ = std::exchange(other.registry_, nullptr);
    key_ = std::move(other.key_);
    entry_ = std::move(other.entry_);
  }
  return *this;
}

void CollectorHandle::reset() {
  if (!entry_) return;
  {
    std::lock_guard lock(entry_->mu);  // waits for a scrape running the collector
    entry_->fn = nullptr;
  }
  registry_->removeCollector(key_, entry_.get());
  entry_.reset();
  registry_ = nullptr;
}

std::vector<MetricFamily> MetricsRegistry::snapshot(bool exemplars) const {
  std::vector<MetricFamily> out;
  std::vector<std::shared_ptr<CollectorEntry>> collectors;
  {
    std::lock_guard lock(mu_);
    for (const auto& [name, f] : families_) {
      MetricFamily& mf = out.emplace_back();
      mf.name = name;
      mf.type = f.type == Type::kCounter ? MetricType::kCounter : MetricType::kGauge;
      mf.help = f.help;
      for (const auto& s : f.series) {
        double v = s.counter ? static_cast<double>(s.counter->value())
                   : s.gauge ? static_cast<double>(s.gauge->value())
                             : s.fn();
        mf.samples.push_back({s.labels, v, std::nullopt});
      }
    }
    for (const auto& [key, entry] : collectors_) collectors.push_back(entry);
  }
  // Collectors run outside mu_: they take their component's lock, which its updates may hold while
  // they register counters here.
  std::vector<MetricFamily> collected;
  for (const auto& entry : collectors) {
    std::lock_guard lock(entry->mu);
    if (entry->fn) entry->fn(collected, exemplars);
  }
  if (collected.empty()) return out;
  // One family per name, sorted by name: a collected family joins a registered one of the same
  // name and type (a different type is left out: a name has one type).
  std::map<std::string, MetricFamily> by_name;
  for (auto& f : out) by_name.emplace(f.name, std::move(f));
  for (auto& f : collected) {
    if (f.samples.empty()) continue;
    auto [it, added] = by_name.try_emplace(f.name, std::move(f));
    if (added || it->second.type != f.type) continue;
    for (auto& s : f.samples) it->second.samples.push_back(std::move(s));
  }
  out.clear();
  for (auto& [name, f] : by_name) out.push_back(std::move(f));
  return out;
}

double MetricsRegistry::value(const std::string& name, const Labels& labels) const {
  std::lock_guard lock(mu_);
  auto it = families_.find(name);
  if (it == families_.end()) return 0;
  for (const auto& s : it->second.series)
    if (s.labels == labels)
      return s.counter ? static_cast<double>(s.counter->value())
             : s.gauge ? static_cast<double>(s.gauge->value())
                       : s.fn();
  return 0;
}

}  // namespace proflow::telemetry
