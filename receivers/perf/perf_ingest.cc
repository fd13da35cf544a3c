#include "receivers/perf/perf_ingest.h"

#include "core/compression/compression.h"
#include "core/flat/flat_attributes.h"
#include "core/formats/perf/perf.h"

namespace proflow::receivers::perf {

PerfIngest::PerfIngest(const PerfReceiverConfig& config, ConsumerPtr next, telemetry::ComponentTelemetry& telemetry)
    : config_(config),
      next_(std::move(next)),
      telemetry_(telemetry),
      lost_(telemetry.counter("perf_lost_samples_total", "samples the kernel reported lost in received recordings")) {}

Status PerfIngest::ingest(std::string_view body, const std::multimap<std::string, std::string>& extra,
                          uint64_t end_time_unix_nano, std::function<Status(size_t bytes)> reserve) {
  auto refuse = [&](Status s) {
    telemetry_.record(telemetry::Event::kReceived, {});
    telemetry_.record(telemetry::Event::kRefused, {});
    return s;
  };
  compression::Limits limits;
  limits.max_output_bytes = config_.max_request_body_size.bytes;
  limits.max_inflate_ratio = config_.max_inflate_ratio;
  std::string inflated;  // empty when the body is the recording itself (no copy)
  std::string_view raw;
  if (Status s = compression::inflateOrView(body, limits, &inflated, &raw); !s.isOk()) return refuse(s);

  ::proflow::perf::Options options;
  options.keep_original_payload = config_.keep_original_payload;
  options.end_time_unix_nano = end_time_unix_nano;
  options.limits.max_stack_depth = config_.max_stack_depth;
  options.limits.max_samples = config_.max_samples;
  if (reserve)
    options.reserve_memory = [&reserve, held = inflated.empty() ? 0 : body.size()](size_t conversion) {
      return reserve(held + conversion);
    };
  flat::Batch converted;
  ::proflow::perf::Result result;
  // A damaged recording is refused whole: nothing half-read is acknowledged.
  if (Status s = ::proflow::perf::perfToFlat(raw, options, &converted, &result); !s.isOk()) return refuse(s);
  if (result.lost > 0) lost_.add(result.lost);
  for (const auto& [k, v] : config_.attributes) flat::addResourceAttribute(converted, 0, k, v, /*replace=*/true);
  for (const auto& [k, v] : extra) flat::addResourceAttribute(converted, 0, k, v, /*replace=*/true);
  Batch batch(std::move(converted));
  if (batch.empty()) return Status::ok();  // a recording without samples
  return next_->consume(std::move(batch));
}

}  // namespace proflow::receivers::perf
