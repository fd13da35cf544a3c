#include "core/telemetry/metrics.h"

#include <cstdio>

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

static std::string formatNumber(double v) {
  char buf[64];
  if (v == static_cast<double>(static_cast<int64_t>(v)) && v < 9e15 && v > -9e15)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else
    std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string MetricsRegistry::renderPrometheus() const {
  std::lock_guard lock(mu_);
  std::string out;
  for (const auto& [name, f] : families_) {
    out += "# HELP " + name + " " + f.help + "\n";
    out += "# TYPE " + name + (f.type == Type::kCounter ? " counter\n" : " gauge\n");
    for (const auto& s : f.series) {
      double v = s.counter ? static_cast<double>(s.counter->value())
                 : s.gauge ? static_cast<double>(s.gauge->value())
                           : s.fn();
      out += name + renderLabels(s.labels) + " " + formatNumber(v) + "\n";
    }
  }
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
