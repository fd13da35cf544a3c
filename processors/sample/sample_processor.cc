#include "processors/sample/sample_processor.h"

#include <algorithm>
#include <map>
#include <optional>

#include "core/repeated_fields.h"
#include "core/request_merger.h"

namespace proflow::processors::sample {
namespace {

constexpr std::string_view kRatioKey = "sampling.ratio";

// Drops scopes and resources left without profiles, then rebuilds the dictionary so entries only
// the dropped data used go too (re-interning into a fresh request leaves orphans behind).
void compact(otlp::Request& req) {
  dropEmptyScopesAndResources(req);
  otlp::Request fresh;
  RequestMerger merger(&fresh);
  merger.append(req);
  req = std::move(fresh);
}

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

bool SampleProcessor::linked(const otlp::Profile& p) const {
  return std::any_of(p.samples().begin(), p.samples().end(), [](const otlp::Sample& s) { return s.link_index() != 0; });
}

std::string SampleProcessor::uniqueKey(const ProfileRef& ref, const otlp::Dictionary& dict) const {
  std::string key;
  for (const auto& k : config_.keep_unique_by) {
    auto v = lookupAttribute(ref, dict, k);
    key += v ? "=" + *v : "!";  // absent differs from empty
    key += '\x1f';
  }
  return key;
}

std::string SampleProcessor::defaultKey(const ProfileRef& ref, const otlp::Dictionary& dict) const {
  std::string id = profileIdHex(*ref.profile);
  if (!id.empty()) return id;
  return lookupAttribute(ref, dict, "service.name").value_or("") + '\x1f' +
         std::to_string(ref.profile->time_unix_nano());
}

std::string SampleProcessor::hashKey(const ProfileRef& ref, const otlp::Dictionary& dict) const {
  if (config_.hash_key.empty()) return defaultKey(ref, dict);
  std::string key;
  for (const auto& k : config_.hash_key) key += lookupAttribute(ref, dict, k).value_or("") + '\x1f';
  return key;
}

double SampleProcessor::cost(const otlp::Profile& p) const {
  if (config_.unit == "profiles") return 1;
  // A profile larger than the bucket could never pass: it costs at most a full bucket.
  return std::min<double>(static_cast<double>(p.samples_size()), static_cast<double>(config_.bucketSize()));
}

// Refuse mode decides for the whole batch before taking anything, so a refused batch leaves no trace
// and its retry is judged afresh.
Status SampleProcessor::refuseIfOverLimit(const otlp::Request& req, Clock::time_point now) {
  std::map<std::string, double> need;
  uint64_t profiles = 0;
  for (const auto& rp : req.resource_profiles())
    for (const auto& sp : rp.scope_profiles())
      for (const auto& p : sp.profiles()) {
        if (config_.keep_linked && linked(p)) continue;
        ProfileRef ref{&rp, &sp, &p};
        need[lookupAttribute(ref, req.dictionary(), config_.service_key).value_or("")] += cost(p);
        ++profiles;
      }
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

SampleProcessor::Verdict SampleProcessor::decide(const ProfileRef& ref, const otlp::Dictionary& dict,
                                                 Clock::time_point now) {
  const bool linked_exempt = config_.keep_linked && linked(*ref.profile);
  // The unique gate is consulted for every profile so its "first per interval" memory is accurate.
  const bool unique_exempt = !config_.keep_unique_by.empty() && unique_.firstInInterval(uniqueKey(ref, dict), now);
  const bool exempt = linked_exempt || unique_exempt;
  if (config_.mode == "probabilistic") {
    if (keepByHash(hashKey(ref, dict), config_.hash_seed, config_.percentage)) return Verdict::kKeepRatio;
    if (exempt) {
      if (exempt_) exempt_->add(1);
      return Verdict::kKeep;
    }
    if (sampled_out_) sampled_out_->add(1);
    return Verdict::kDrop;
  }
  if (config_.mode == "rate_limit") {
    std::string service = lookupAttribute(ref, dict, config_.service_key).value_or("");
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

void SampleProcessor::downsample(otlp::Profile* p, const std::string& key, Stats& stats) {
  const double prob = config_.probability;
  const uint64_t base = stableHash(key, config_.seed);
  uint64_t index = 0;
  removeIf(p->mutable_samples(), [&](const otlp::Sample& s) {
    uint64_t coin = mix64(base ^ mix64(index++));
    if (config_.keep_linked && s.link_index() != 0) return false;  // kept whole, unscaled
    if (unitInterval(coin) >= prob) {
      ++stats.samples_dropped;
      return true;
    }
    return false;
  });
  if (prob >= 1) return;
  index = 0;
  for (auto& s : *p->mutable_samples()) {
    if (config_.keep_linked && s.link_index() != 0) continue;
    uint64_t coin = mix64(base ^ mix64(0x5ca1eULL + index++));
    // Timestamps alone count 1 each: give them explicit values so they can carry the scale.
    if (s.values_size() == 0)
      for (int i = 0; i < s.timestamps_unix_nano_size(); ++i) s.add_values(1);
    for (int i = 0; i < s.values_size(); ++i) {
      coin = mix64(coin);
      s.set_values(i, scaleUnbiased(s.values(i), prob, unitInterval(coin)));
    }
  }
}

void SampleProcessor::markRatio(DictionaryBuilder& dict, otlp::Profile* p, double ratio) {
  const auto& d = dict.dictionary();
  auto* indices = p->mutable_attribute_indices();
  for (int i = 0; i < indices->size(); ++i) {
    int32_t a = indices->Get(i);
    if (a <= 0 || a >= d.attribute_table_size() || dictString(d, d.attribute_table(a).key_strindex()) != kRatioKey)
      continue;
    // Sampled twice: the ratios multiply.
    const auto& v = d.attribute_table(a).value();
    double prior = v.has_double_value() ? v.double_value() : 1.0;
    indices->Set(i, dict.doubleAttribute(kRatioKey, prior * ratio));
    return;
  }
  p->add_attribute_indices(dict.doubleAttribute(kRatioKey, ratio));
}

void SampleProcessor::apply(otlp::Request& req, Stats& stats, Clock::time_point now) {
  std::optional<DictionaryBuilder> builder;
  const double ratio = config_.percentage / 100.0;
  for (auto& rp : *req.mutable_resource_profiles())
    for (auto& sp : *rp.mutable_scope_profiles()) {
      removeIf(sp.mutable_profiles(), [&](const otlp::Profile& p) {
        ProfileRef ref{&rp, &sp, &p};
        Verdict v = decide(ref, req.dictionary(), now);
        if (v == Verdict::kDrop) {
          ++stats.profiles_dropped;
          stats.samples_dropped += static_cast<uint64_t>(p.samples_size());
          return true;
        }
        auto* mp = const_cast<otlp::Profile*>(&p);  // the batch is ours (mutates_data)
        if (config_.mode == "downsample" && v == Verdict::kKeepRatio) {
          std::string key = defaultKey(ref, req.dictionary()) + '\x1f' +
                            std::string(dictString(req.dictionary(), p.sample_type().type_strindex()));
          downsample(mp, key, stats);
        } else if (config_.mode == "probabilistic") {
          if (!builder) builder.emplace(req.mutable_dictionary());
          markRatio(*builder, mp, v == Verdict::kKeepRatio ? ratio : 1.0);
        }
        if (kept_) kept_->add(1);
        return false;
      });
    }
}

Status SampleProcessor::consume(Batch batch) {
  auto& req = batch.mutableRequest();
  Stats stats;
  {
    std::lock_guard lock(mu_);
    const auto now = clock_();
    if (config_.mode == "rate_limit" && config_.on_limit == "refuse") {
      Status s = refuseIfOverLimit(req, now);
      if (!s.isOk()) return s;
    }
    apply(req, stats, now);
  }
  if (stats.profiles_dropped || stats.samples_dropped) {
    if (samples_downsampled_ && config_.mode == "downsample") samples_downsampled_->add(stats.samples_dropped);
    if (settings_.telemetry)
      settings_.telemetry->record(telemetry::Event::kDropped,
                                  BatchCounts{0, stats.profiles_dropped, stats.samples_dropped});
    compact(req);
  }
  if (batch.empty()) return Status::ok();  // everything was sampled out: nothing to send
  return next_->consume(std::move(batch));
}

}  // namespace proflow::processors::sample
