#include "processors/compress/compress_processor.h"

#include "processors/compress/compactor.h"

namespace proflow::processors::compress {

CompressProcessor::CompressProcessor(const CreateSettings& settings, const CompressConfig& config, ConsumerPtr next)
    : config_(config), next_(std::move(next)) {
  if (auto* t = settings.telemetry) {
    bytes_before_ = &t->counter("compress_bytes_before_total", "serialized bytes of batches before compaction");
    bytes_after_ = &t->counter("compress_bytes_after_total", "serialized bytes of batches after compaction");
    merged_ = &t->counter("compress_merged_samples_total", "samples merged into another with the same identity");
    zero_dropped_ = &t->counter("compress_zero_samples_total", "zero-valued samples (or events) removed");
    truncated_ = &t->counter("compress_truncated_samples_total", "samples whose stack max_stack_depth cut");
    folded_ = &t->counter("compress_folded_samples_total", "samples folded under an [other] frame");
  }
}

Status CompressProcessor::consume(Batch batch) {
  CompactStats s = compactBatch(batch.mutableData(), config_);
  if (bytes_before_) {
    bytes_before_->add(s.bytes_before);
    bytes_after_->add(s.bytes_after);
    merged_->add(s.samples_merged);
    zero_dropped_->add(s.zero_dropped);
    truncated_->add(s.stacks_truncated);
    folded_->add(s.samples_folded);
  }
  return next_->consume(std::move(batch));
}

}  // namespace proflow::processors::compress
