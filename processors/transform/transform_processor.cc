#include "processors/transform/transform_processor.h"

#include <stdexcept>

#include "core/flat/flat_compact.h"

namespace proflow::processors::transform {
namespace {

std::vector<CompiledGroup> compileOrThrow(const TransformConfig& c) {
  config::ConfigErrors errors;
  config::FieldLocations locations;
  config::ValidationContext ctx(errors, "transform", locations, {});
  auto groups = compileGroups(c, ctx);
  if (!errors.empty()) throw std::invalid_argument(errors.format());
  return groups;
}

}  // namespace

TransformProcessor::TransformProcessor(const CreateSettings& settings, const TransformConfig& config, ConsumerPtr next)
    : settings_(settings), next_(std::move(next)), groups_(compileOrThrow(config)) {
  if (auto* t = settings_.telemetry)
    errors_ = &t->counter("transform_statement_errors_total", "statements or group conditions that failed on an item");
}

Status TransformProcessor::consume(Batch batch) {
  flat::Batch& b = batch.mutableData();
  ottl::BatchEdits edits;
  for (const auto& g : groups_) {
    ottl::RunStats stats;
    Status s = g.group.run(b, g.error_mode, &stats, &edits);
    if (stats.errors == 0) continue;
    if (errors_) errors_->add(stats.errors);
    if (g.error_mode == ottl::ErrorMode::kIgnore && settings_.logger)
      log_throttle_.log(*settings_.logger, spdlog::level::warn, "statement",
                        "transform: " + std::to_string(stats.errors) + " failed statement(s) skipped, first: " +
                            stats.first_error);
    if (!s.isOk()) return s;
  }
  // What the statements replaced or deleted (a redacted value, a deleted key) must not reach the
  // exporters: a statement cannot tell whether another item still uses an entry, so the batch is
  // compacted once after all groups.
  flat::dropUnreferenced(b);
  return next_->consume(std::move(batch));
}

}  // namespace proflow::processors::transform
