#include "processors/profilemetrics/series_store.h"

#include <algorithm>

#include "processors/profilemetrics/metric_naming.h"

namespace proflow::processors::profilemetrics {
namespace {

// Families being built for one scrape; samples of one family with equal labels are summed (two
// units converted to one name, say cpu in nanoseconds and in milliseconds).
class FamilyBuilder {
 public:
  void add(const std::string& name, const std::string& help, const std::string& unit, telemetry::Labels labels,
           double value, std::optional<telemetry::Exemplar> exemplar) {
    auto [fit, added] = families_.try_emplace(name);
    telemetry::MetricFamily& f = fit->second;
    if (added) f = {name, telemetry::MetricType::kCounter, help, unit, {}};
    std::string key = telemetry::renderLabels(labels);
    auto [sit, fresh] = index_.try_emplace({name, key}, f.samples.size());
    if (fresh) {
      f.samples.push_back({std::move(labels), value, std::move(exemplar)});
      return;
    }
    telemetry::MetricSample& s = f.samples[sit->second];
    s.value += value;
    if (exemplar && (!s.exemplar || exemplar->value > s.exemplar->value)) s.exemplar = std::move(exemplar);
  }
  void appendTo(std::vector<telemetry::MetricFamily>& out) {
    for (auto& [name, f] : families_) out.push_back(std::move(f));
  }

 private:
  std::map<std::string, telemetry::MetricFamily> families_;
  std::map<std::pair<std::string, std::string>, size_t> index_;
};

std::optional<telemetry::Exemplar> exemplarOf(const ExemplarCandidate& c, double divisor) {
  if (!c.valid()) return std::nullopt;
  telemetry::Exemplar e;
  e.labels.emplace_back("trace_id", c.trace_id);
  if (!c.span_id.empty()) e.labels.emplace_back("span_id", c.span_id);
  if (!c.profile_id.empty()) e.labels.emplace_back("profile_id", c.profile_id);
  e.value = static_cast<double>(c.value) / divisor;
  e.timestamp = c.timestamp;
  return e;
}

}  // namespace

void SeriesStore::Slot::offer(ExemplarCandidate&& c) {
  if (!c.valid()) return;
  if (!candidate.valid() || shown || c.value > candidate.value) {
    candidate = std::move(c);
    shown = false;
  }
}

SeriesStore::SeriesStore(const StoreLimits& limits, Clock::time_point now) : limits_(limits), window_start_(now) {}

uint64_t SeriesStore::advance(Clock::time_point now) {
  if (now - window_start_ < limits_.window) return 0;
  uint64_t dropped = rotate(now);
  window_start_ += limits_.window;
  if (now - window_start_ >= limits_.window) window_start_ = now;  // whole windows passed without data
  return dropped;
}

uint64_t SeriesStore::rotate(Clock::time_point now) {
  // Totals of keys that saw nothing for idle_timeout go, with their function series.
  if (limits_.idle_timeout.count() > 0) {
    for (auto it = keys_.begin(); it != keys_.end();) {
      if (now - it->second.last_seen < limits_.idle_timeout) {
        ++it;
        continue;
      }
      series_ -= 1;
      for (const auto& [name, f] : it->second.functions) series_ -= size_t{f.in_self} + size_t{f.in_inclusive};
      tracked_ -= it->second.functions.size();
      it = keys_.erase(it);
    }
  }
  // This window's top N per key, by self and by inclusive value; series out of it go first, so
  // the ones coming in can take their place under max_series.
  struct Admission {
    Function* f;
    bool self;
  };
  std::vector<Admission> admissions;
  for (auto& [id, key] : keys_) {
    if (!key.active) continue;  // no sample this window: its top N stays
    for (bool self : {true, false}) {
      std::vector<std::pair<int64_t, std::pair<const std::string*, Function*>>> ranked;
      for (auto& [name, f] : key.functions) {
        int64_t v = self ? f.self_window : f.inclusive_window;
        if (v > 0) ranked.push_back({v, {&name, &f}});
      }
      const size_t n = std::min(limits_.top_n, ranked.size());
      std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(n), ranked.end(),
                        [](const auto& a, const auto& b) {
                          return a.first != b.first ? a.first > b.first : *a.second.first < *b.second.first;
                        });
      ranked.resize(n);
      std::unordered_map<const Function*, bool> top;
      for (const auto& r : ranked) top[r.second.second] = true;
      for (auto& [name, f] : key.functions) {
        bool& in = self ? f.in_self : f.in_inclusive;
        if (in && !top.count(&f)) {
          in = false;
          (self ? f.self : f.inclusive) = 0;
          --series_;
        }
      }
      for (const auto& r : ranked)
        if (!(self ? r.second.second->in_self : r.second.second->in_inclusive)) admissions.push_back({r.second.second, self});
    }
  }
  uint64_t dropped = 0;
  for (const Admission& a : admissions) {
    if (series_ >= limits_.max_series) {
      ++dropped;
      continue;
    }
    ++series_;
    if (a.self) a.f->in_self = true, a.f->self = a.f->self_window;
    else a.f->in_inclusive = true, a.f->inclusive = a.f->inclusive_window;
  }
  // Functions without a series are forgotten; the others start the next window at zero.
  for (auto& [id, key] : keys_) {
    key.active = false;
    for (auto it = key.functions.begin(); it != key.functions.end();) {
      Function& f = it->second;
      if (!f.in_self && !f.in_inclusive) {
        it = key.functions.erase(it);
        --tracked_;
        continue;
      }
      f.self_window = f.inclusive_window = 0;
      if (!f.in_self) f.self_exemplar = Slot{};
      if (!f.in_inclusive) f.inclusive_exemplar = Slot{};
      ++it;
    }
  }
  return dropped;
}

AddOutcome SeriesStore::add(Digest&& digest, Clock::time_point now) {
  AddOutcome o;
  o.dropped_series += advance(now);
  for (KeyDigest& kd : digest.keys) {
    KeyId id{kd.service, kd.type, kd.unit};
    auto it = keys_.find(id);
    if (it == keys_.end()) {
      if (series_ >= limits_.max_series) {
        ++o.dropped_series;
        o.dropped_samples += kd.samples;
        continue;
      }
      it = keys_.emplace(std::move(id), Key{}).first;
      ++series_;
    }
    Key& k = it->second;
    k.total = saturatingAdd(k.total, kd.total);
    k.last_seen = now;
    k.active = true;
    k.exemplar.offer(std::move(kd.exemplar));
    for (auto& [name, fd] : kd.functions) {
      auto fit = k.functions.find(name);
      if (fit == k.functions.end()) {
        if (tracked_ >= limits_.max_tracked_functions) {
          ++o.untracked_functions;
          continue;
        }
        fit = k.functions.emplace(name, Function{}).first;
        ++tracked_;
      }
      Function& f = fit->second;
      f.self_window = saturatingAdd(f.self_window, fd.self);
      f.inclusive_window = saturatingAdd(f.inclusive_window, fd.inclusive);
      if (f.in_self) f.self = saturatingAdd(f.self, fd.self);
      if (f.in_inclusive) f.inclusive = saturatingAdd(f.inclusive, fd.inclusive);
      f.self_exemplar.offer(std::move(fd.self_exemplar));
      f.inclusive_exemplar.offer(std::move(fd.inclusive_exemplar));
    }
  }
  return o;
}

void SeriesStore::collect(std::vector<telemetry::MetricFamily>& out, const telemetry::Labels& base, bool exemplars) {
  FamilyBuilder families;
  auto emit = [&](const std::string& family, const std::string& help, const SampleTypeName& n,
                  telemetry::Labels labels, int64_t value, Slot& slot) {
    families.add(family, help, n.unit, std::move(labels), static_cast<double>(value) / n.divisor,
                 exemplarOf(slot.candidate, n.divisor));
    if (exemplars && slot.candidate.valid()) slot.shown = true;
  };
  for (auto& [id, key] : keys_) {
    const auto& [service, type, unit] = id;
    const SampleTypeName n = nameSampleType(type, unit);
    const std::string what = n.stem + (n.unit.empty() ? "" : ", in " + n.unit);
    telemetry::Labels labels = base;
    labels.emplace_back("service_name", service);
    emit(totalFamily(n), "sum of the sample values of profiles per service (" + what + ")", n, labels,
         key.total, key.exemplar);
    for (auto& [name, f] : key.functions) {
      telemetry::Labels fl = labels;
      fl.emplace_back("function", name);
      if (f.in_self)
        emit(selfFamily(n), "value of samples whose leaf frame is the function, for the top N functions of a service (" + what + ")", n, fl,
             f.self, f.self_exemplar);
      if (f.in_inclusive)
        emit(inclusiveFamily(n), "value of samples with the function anywhere in the stack, for the top N functions of a service (" + what + ")",
             n, fl, f.inclusive, f.inclusive_exemplar);
    }
  }
  families.appendTo(out);
}

}  // namespace proflow::processors::profilemetrics
