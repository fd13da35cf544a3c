#include "processors/sample/sample_processor.h"

#include <algorithm>
#include <map>
#include <optional>

#include "core/flat/flat_attributes.h"

namespace proflow::processors::sample {
namespace {

constexpr std::string_view kRatioKey = "sampling.ratio";

}  // namespace

SampleProcessor::SampleProcessor(const CreateSettings& settings, const SampleConfig& config, ConsumerPtr next,
                                 ClockFn clock)
    : settings_(settings),
      config_(config),
      next_(std::move(next)),
      clock_(std::move(clock)),
      buckets_(config.limit, static_cast<double>(config.bucketSize())),
      unique_(std::chrono::duration_cast<Clock::duration>(config.unique_interval.value)) {
  if (auto* t = settings_.telemetry) {
    kept_ = &t->counter("sample_kept_profiles_total", "profiles let through by the sample processor");
    sampled_out_ = &t->counter("sample_sampled_out_profiles_total", "profiles dropped by probabilistic sampling");
    rate_limited_ = &t->counter("sample_rate_limited_profiles_total", "profiles refused or dropped by the rate limit");
    samples_downsampled_ = &t->counter("sample_downsampled_samples_total", "samples removed by downsampling");
    exempt_ = &t->counter("sample_exempt_profiles_total", "profiles kept by keep_linked or keep_unique_by");
  }
}

bool SampleProcessor::linked(const flat::Batch& b, const flat::Profile& p) const {
  const auto links = flat::Batch::slice(b.samples.link_index, p.samples);
  return std::any_of(links.begin(), links.end(), [](int32_t link) { return link != 0; });
}

std::string SampleProcessor::uniqueKey(const flat::Batch& b, const flat::ProfileRef& ref) const {
  std::string key;
  for (const auto& k : config_.keep_unique_by) {
    auto v = flat::lookupAttribute(b, ref, k);
    key += v ? "=" + *v : "!";  // absent differs from empty
    key += '\x1f';
  }
  return key;
}

std::string SampleProcessor::defaultKey(const flat::Batch& b, const flat::ProfileRef& ref) const {
  std::string id = flat::profileIdHex(b, *ref.profile);
  if (!id.empty()) return id;
  return flat::lookupAttribute(b, ref, "service.name").value_or("") + '\x1f' + std::to_string(ref.profile->time_unix_nano);
}

std::string SampleProcessor::hashKey(const flat::Batch& b, const flat::ProfileRef& ref) const {
  if (config_.hash_key.empty()) return defaultKey(b, ref);
  std::string key;
  for (const auto& k : config_.hash_key) key += flat::lookupAttribute(b, ref, k).value_or("") + '\x1f';
  return key;
}

double SampleProcessor::cost(const flat::Profile& p) const {
  if (config_.unit == "profiles") return 1;
  // A profile larger than the bucket could never pass: it costs at most a full bucket.
  return std::min<double>(static_cast<double>(p.samples.size), static_cast<double>(config_.bucketSize()));
}

template <class Fn>
void SampleProcessor::forEachProfile(const flat::Batch& b, Fn&& fn) {
  for (const flat::Resource& r : b.resources)
    b.forEachScope(r, [&](uint32_t s) {
      const flat::Scope& scope = b.scopes[s];
      for (uint32_t p = scope.profiles.begin; p < scope.profiles.end(); ++p)
        fn(p, flat::ProfileRef{&r, &scope, &b.profiles[p]});
    });
}

// Refuse mode decides for the whole batch before taking anything, so a refused batch leaves no trace
// and its retry is judged afresh.
Status SampleProcessor::refuseIfOverLimit(const flat::Batch& b, Clock::time_point now) {
  std::map<std::string, double> need;
  uint64_t profiles = 0;
  forEachProfile(b, [&](uint32_t, const flat::ProfileRef& ref) {
    if (config_.keep_linked && linked(b, *ref.profile)) return;
    need[flat::lookupAttribute(b, ref, config_.service_key).value_or("")] += cost(*ref.profile);
    ++profiles;
  });
  for (const auto& [service, n] : need)
    if (!buckets_.available(service, std::min(n, static_cast<double>(config_.bucketSize())), now)) {
      if (rate_limited_) rate_limited_->add(profiles);
      return Status::exhausted("sample: rate limit of service '" + service + "' exceeded (" +
                               std::to_string(config_.limit) + " " + config_.unit + "/s)");
    }
  for (const auto& [service, n] : need)
    buckets_.take(service, std::min(n, static_cast<double>(config_.bucketSize())), now);
  return Status::ok();
}

SampleProcessor::Verdict SampleProcessor::decide(const flat::Batch& b, const flat::ProfileRef& ref,
                                                 Clock::time_point now) {
  const bool linked_exempt = config_.keep_linked && linked(b, *ref.profile);
  // The unique gate is consulted for every profile so its "first per interval" memory is accurate.
  const bool unique_exempt = !config_.keep_unique_by.empty() && unique_.firstInInterval(uniqueKey(b, ref), now);
  const bool exempt = linked_exempt || unique_exempt;
  if (config_.mode == "probabilistic") {
    if (keepByHash(hashKey(b, ref), config_.hash_seed, config_.percentage)) return Verdict::kKeepRatio;
    if (exempt) {
      if (exempt_) exempt_->add(1);
      return Verdict::kKeep;
    }
    if (sampled_out_) sampled_out_->add(1);
    return Verdict::kDrop;
  }
  if (config_.mode == "rate_limit") {
    std::string service = flat::lookupAttribute(b, ref, config_.service_key).value_or("");
    if (config_.on_limit == "refuse") return Verdict::kKeep;  // already charged for the whole batch
    if (buckets_.take(service, cost(*ref.profile), now)) return Verdict::kKeep;
    if (exempt) {
      if (exempt_) exempt_->add(1);
      return Verdict::kKeep;
    }
    if (rate_limited_) rate_limited_->add(1);
    return Verdict::kDrop;
  }
  // downsample: an exempt-by-label profile passes whole; linked samples are handled per sample.
  return unique_exempt ? Verdict::kKeep : Verdict::kKeepRatio;
}

void SampleProcessor::downsample(flat::Batch& b, uint32_t profile, const std::string& key, std::vector<bool>& keep,
                                 Stats& stats) {
  const double prob = config_.probability;
  const uint64_t base = stableHash(key, config_.seed);
  const flat::Range rows = b.profiles[profile].samples;
  uint64_t index = 0;
  for (uint32_t row = rows.begin; row < rows.end(); ++row) {
    uint64_t coin = mix64(base ^ mix64(index++));
    if (config_.keep_linked && b.samples.link_index[row] != 0) continue;  // kept whole, unscaled
    if (unitInterval(coin) >= prob) {
      keep[row] = false;
      ++stats.samples_dropped;
    }
  }
  if (prob >= 1) return;
  index = 0;
  for (uint32_t row = rows.begin; row < rows.end(); ++row) {
    if (!keep[row] || (config_.keep_linked && b.samples.link_index[row] != 0)) continue;
    uint64_t coin = mix64(base ^ mix64(0x5ca1eULL + index++));
    // Written as a new run of the values column (rows may share one). Timestamps alone count 1
    // each: they get explicit values so they can carry the scale.
    const flat::Range old = b.samples.values[row];
    const uint32_t n = old.size != 0 ? old.size : b.samples.timestamps[row].size;
    flat::Range scaled{static_cast<uint32_t>(b.values.size()), n};
    for (uint32_t i = 0; i < n; ++i) {
      coin = mix64(coin);
      const int64_t v = old.size != 0 ? b.values[old.begin + i] : 1;
      b.values.push_back(scaleUnbiased(v, prob, unitInterval(coin)));
    }
    b.samples.values[row] = scaled;
  }
}

void SampleProcessor::markRatio(flat::DictionaryIndex& dict, uint32_t profile, double ratio) {
  flat::Batch& b = dict.batch();
  const auto view = b.indexList(b.profiles[profile].attributes);
  std::vector<int32_t> list(view.begin(), view.end());  // written anew: lists may be shared
  const int32_t key = dict.string(kRatioKey);
  auto ratioAttribute = [&](double value) {
    flat::Attribute a;
    a.key_strindex = key;
    a.value.kind = flat::ValueKind::kDouble;
    a.value.scalar = std::bit_cast<int64_t>(value);
    return dict.attribute(a);
  };
  bool found = false;
  for (int32_t& a : list) {
    if (a <= 0 || static_cast<size_t>(a) >= b.attributes.size() || b.string(b.attributes[a].key_strindex) != kRatioKey)
      continue;
    // Sampled twice: the ratios multiply.
    const flat::Value& v = b.attributes[a].value;
    const double prior = v.kind == flat::ValueKind::kDouble ? v.doubleValue() : 1.0;
    a = ratioAttribute(prior * ratio);
    found = true;
    break;
  }
  if (!found) list.push_back(ratioAttribute(ratio));
  b.profiles[profile].attributes = flat::Range{static_cast<uint32_t>(b.indices.size()), static_cast<uint32_t>(list.size())};
  b.indices.insert(b.indices.end(), list.begin(), list.end());
}

void SampleProcessor::apply(flat::Batch& b, flat::Merger::Selection& keep, Stats& stats, Clock::time_point now) {
  std::optional<flat::DictionaryIndex> dict;
  const double ratio = config_.percentage / 100.0;
  keep.profiles.assign(b.profiles.size(), true);
  keep.samples.assign(b.samples.size(), true);
  std::vector<std::pair<uint32_t, Verdict>> verdicts;  // edits come after the walk: they grow columns
  forEachProfile(b, [&](uint32_t p, const flat::ProfileRef& ref) {
    Verdict v = decide(b, ref, now);
    if (v == Verdict::kDrop) {
      keep.profiles[p] = false;
      ++stats.profiles_dropped;
      stats.samples_dropped += ref.profile->samples.size;
      return;
    }
    if (config_.mode == "downsample" && v == Verdict::kKeepRatio)
      downsample(b, p, defaultKey(b, ref) + '\x1f' + std::string(b.string(ref.profile->sample_type.type_strindex)),
                 keep.samples, stats);
    else if (config_.mode == "probabilistic")
      verdicts.emplace_back(p, v);
    if (kept_) kept_->add(1);
  });
  for (const auto& [p, v] : verdicts) {
    if (!dict) dict.emplace(&b);
    markRatio(*dict, p, v == Verdict::kKeepRatio ? ratio : 1.0);
  }
}

Status SampleProcessor::consume(Batch batch) {
  flat::Batch& b = batch.mutableData();
  flat::Merger::Selection keep;
  Stats stats;
  {
    std::lock_guard lock(mu_);
    const auto now = clock_();
    if (config_.mode == "rate_limit" && config_.on_limit == "refuse") {
      Status s = refuseIfOverLimit(b, now);
      if (!s.isOk()) return s;
    }
    apply(b, keep, stats, now);
  }
  if (stats.profiles_dropped || stats.samples_dropped) {
    if (samples_downsampled_ && config_.mode == "downsample") samples_downsampled_->add(stats.samples_dropped);
    if (settings_.telemetry)
      settings_.telemetry->record(telemetry::Event::kDropped,
                                  BatchCounts{0, stats.profiles_dropped, stats.samples_dropped});
    // Copied into a fresh batch: what the dropped data alone used is left behind, and resources and
    // scopes left without a profile go too.
    flat::Batch fresh;
    flat::Merger merger(&fresh);
    merger.append(b, keep);
    fresh.shrinkToFit();
    batch = Batch(std::move(fresh)).withMetadataOf(batch);
  }
  if (batch.empty()) return Status::ok();  // everything was sampled out: nothing to send
  return next_->consume(std::move(batch));
}

}  // namespace proflow::processors::sample
