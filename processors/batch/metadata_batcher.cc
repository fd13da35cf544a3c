#include "processors/batch/metadata_batcher.h"

#include <spdlog/logger.h>

namespace proflow::processors::batch {

MetadataBatcher::MetadataBatcher(const CreateSettings& settings, const BatchProcessorConfig& config, ConsumerPtr next)
    : settings_(settings), config_(config), next_(std::move(next)) {
  if (settings_.telemetry)
    over_limit_ = &settings_.telemetry->counter(
        "metadata_cardinality_refusals_total",
        "batches refused because metadata_keys had more distinct values than metadata_cardinality_limit");
}

MetadataBatcher::~MetadataBatcher() { shutdown(std::chrono::steady_clock::now()); }

Status MetadataBatcher::start(Host& host) {
  std::lock_guard lock(mu_);
  host_ = &host;
  return Status::ok();
}

std::vector<std::vector<std::string>> MetadataBatcher::valuesOf(const Batch& batch) const {
  std::vector<std::vector<std::string>> out;
  for (const auto& key : config_.metadata_keys) {
    const std::vector<std::string>* values = batch.metadata() ? batch.metadata()->get(key) : nullptr;
    out.push_back(values ? *values : std::vector<std::string>{});
  }
  return out;
}

Status MetadataBatcher::consume(Batch batch) {
  auto values = valuesOf(batch);
  BatchProcessor* target = nullptr;
  {
    std::lock_guard lock(mu_);
    if (stopped_ || !host_) return Status::unavailable("batch processor " + settings_.id.str() + " is not running");
    auto it = batchers_.find(values);
    if (it == batchers_.end()) {
      if (batchers_.size() >= config_.metadata_cardinality_limit) {
        if (over_limit_) over_limit_->add();
        return Status::exhausted("batch processor " + settings_.id.str() + ": metadata_keys have " +
                                 std::to_string(batchers_.size()) +
                                 " distinct values already (metadata_cardinality_limit)");
      }
      auto stamp = std::make_shared<ClientMetadata>();
      for (size_t k = 0; k < values.size(); ++k)
        for (const auto& v : values[k]) stamp->add(config_.metadata_keys[k], v);
      auto processor = std::make_unique<BatchProcessor>(settings_, config_, next_);
      processor->stampOutput(std::move(stamp));
      if (Status s = processor->start(*host_); !s.isOk()) return s;
      it = batchers_.emplace(std::move(values), std::move(processor)).first;
    }
    target = it->second.get();  // lives until shutdown(), which waits for mu_
  }
  return target->consume(std::move(batch));
}

void MetadataBatcher::shutdown(Deadline deadline) {
  std::lock_guard lock(mu_);
  stopped_ = true;
  for (auto& [values, processor] : batchers_) processor->shutdown(deadline);
}

size_t MetadataBatcher::batchers() const {
  std::lock_guard lock(mu_);
  return batchers_.size();
}

}  // namespace proflow::processors::batch
