#include "processors/transform/transform_processor.h"

#include <stdexcept>

#include "core/flat/flat_compact.h"
#include "processors/transform/edit_charge.h"

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
    : settings_(settings),
      next_(std::move(next)),
      groups_(compileOrThrow(config)),
      edit_budget_(std::make_shared<net::InFlightBudget>(kEditBudgetBytes, "the transform's limit for edits outside "
                                                                           "a receiver's request")) {
  if (auto* t = settings_.telemetry)
    errors_ = &t->counter("transform_statement_errors_total", "statements or group conditions that failed on an item");
}

Status TransformProcessor::consume(Batch batch) {
  flat::Batch& b = batch.mutableData();
  EditCharge charge(b, *edit_budget_);
  ottl::BatchEdits edits;
  edits.after_item = [&charge](const flat::Batch& edited) { return charge.update(edited); };
  for (const auto& g : groups_) {
    ottl::RunStats stats;
    Status s;
    try {
      s = g.group.run(b, g.error_mode, &stats, &edits);
    } catch (const std::length_error& e) {
      // The batch's 32-bit offsets (flat::Batch::addBytes) or a column's size would be passed.
      return Status::tooLarge(std::string("transform: the edited batch cannot be held: ") + e.what());
    }
    if (stats.errors == 0) {
      if (!s.isOk()) return s;  // no statement failed: the charge of the edits was refused
      continue;
    }
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
