#include "processors/profilemetrics/profilemetrics_processor.h"

namespace proflow::processors::profilemetrics {
namespace {

StoreLimits limitsOf(const ProfileMetricsConfig& c) {
  StoreLimits l;
  l.top_n = c.top_n;
  l.max_series = c.max_series;
  l.max_tracked_functions = c.max_tracked_functions;
  l.window = c.window.value;
  l.idle_timeout = c.idle_timeout.value;
  return l;
}

}  // namespace

ProfileMetricsProcessor::ProfileMetricsProcessor(const CreateSettings& settings, const ProfileMetricsConfig& config,
                                                 ConsumerPtr next, ClockFn clock)
    : config_(config), next_(std::move(next)), clock_(std::move(clock)), store_(limitsOf(config), clock_()) {
  if (auto* t = settings.telemetry) {
    base_labels_ = t->labels();
    dropped_series_ = &t->counter("profilemetrics_dropped_series_total", "series not created because max_series was reached");
    dropped_samples_ = &t->counter("profilemetrics_dropped_samples_total",
                                   "samples left out of every total because their series was not created (max_series)");
    untracked_functions_ = &t->counter("profilemetrics_untracked_functions_total",
                                       "functions not followed in a window because max_tracked_functions was reached");
    truncated_labels_ = &t->counter("profilemetrics_truncated_labels_total",
                                    "service or function names cut to max_label_length");
    series_ = &t->gauge("profilemetrics_series", "series the profilemetrics processor exposes");
    // Keyed by the telemetry labels (processor and pipeline): one collector per instance, and a
    // replacement from a reload takes over the series of the one it replaces.
    collector_ = t->registry().addCollector("profilemetrics" + telemetry::renderLabels(base_labels_),
                                            [this](std::vector<telemetry::MetricFamily>& out, bool exemplars) {
                                              collect(out, exemplars);
                                            });
  }
}

ProfileMetricsProcessor::~ProfileMetricsProcessor() { collector_.reset(); }

void ProfileMetricsProcessor::account(const AddOutcome& o, uint64_t truncated, size_t series) {
  if (!dropped_series_) return;
  dropped_series_->add(o.dropped_series);
  dropped_samples_->add(o.dropped_samples);
  untracked_functions_->add(o.untracked_functions);
  truncated_labels_->add(truncated);
  series_->set(static_cast<int64_t>(series));
}

Status ProfileMetricsProcessor::consume(Batch batch) {
  // The digest is computed before the batch moves on (the flat data is shared, read-only) and
  // counted only once the next consumer took the batch.
  DigestOptions options;
  options.max_label_length = config_.max_label_length;
  options.functions = config_.top_n > 0;
  Digest digest = digestBatch(batch.data(), options);
  Status s = next_->consume(std::move(batch));
  if (!s.isOk()) return s;
  const uint64_t truncated = digest.truncated_labels;
  AddOutcome o;
  size_t series = 0;
  {
    std::lock_guard lock(mu_);
    o = store_.add(std::move(digest), clock_());
    series = store_.seriesCount();
  }
  account(o, truncated, series);
  return s;
}

void ProfileMetricsProcessor::collect(std::vector<telemetry::MetricFamily>& out, bool exemplars) {
  AddOutcome o;
  size_t series = 0;
  {
    std::lock_guard lock(mu_);
    o.dropped_series = store_.advance(clock_());
    store_.collect(out, base_labels_, exemplars);
    series = store_.seriesCount();
  }
  account(o, 0, series);
}

}  // namespace proflow::processors::profilemetrics
