#include "receivers/jfr/jfr_ingest.h"

#include "core/compression/compression.h"
#include "core/flat/flat_attributes.h"
#include "core/formats/jfr/flat_converter.h"

namespace proflow::receivers::jfr {

Status JfrIngest::ingest(std::string_view body, const std::multimap<std::string, std::string>& extra,
                         std::function<Status(size_t bytes)> reserve) {
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

  flat::Batch converted;
  ::proflow::jfr::ConvertOptions options;
  options.keep_original_payload = config_.keep_original_payload;
  // The converter claims the recording's estimate (the recording's bytes included) before reading
  // it, then ahead of its output; a compressed body is held beside its inflated copy.
  if (reserve)
    options.reserve_memory = [&reserve, held = inflated.empty() ? 0 : body.size()](size_t conversion) {
      return reserve(held + conversion);
    };
  auto bytes = std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(raw.data()), raw.size());
  ::proflow::jfr::ConvertResult r = ::proflow::jfr::convertToFlat(bytes, options, &converted);
  if (!r.refused.isOk()) return refuse(r.refused);
  // A damaged or unfinished recording is refused whole: the sender (or the directory watcher) keeps
  // the file, and nothing half-read is acknowledged.
  if (!r.ok) return refuse(Status::invalid("JFR: " + r.error.message));
  if (converted.resources.empty()) return refuse(Status::invalid("JFR: no chunk in the input"));

  for (const auto& [k, v] : config_.attributes) flat::addResourceAttribute(converted, 0, k, v, /*replace=*/true);
  for (const auto& [k, v] : extra) flat::addResourceAttribute(converted, 0, k, v, /*replace=*/true);
  Batch batch(std::move(converted));
  if (batch.empty()) return Status::ok();  // a recording without profiling events
  return next_->consume(std::move(batch));
}

}  // namespace proflow::receivers::jfr
