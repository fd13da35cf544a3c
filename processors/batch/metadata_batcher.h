// The batch processor with `metadata_keys`: one batch processor per distinct combination of those
// keys' values in the request metadata receivers kept (include_metadata), as the Collector's batch
// processor does, so a tenant's data is never merged with another's and each request it sends
// carries its tenant's keys (for the headers_setter extension, a routing connector's request
// context). At most `metadata_cardinality_limit` combinations are held; data of one more is refused
// with RESOURCE_EXHAUSTED (retryable) and counted. Each combination has its own buffers, caps and
// sender thread.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/component/factory.h"
#include "processors/batch/batch_processor.h"

namespace proflow::processors::batch {

class MetadataBatcher final : public Processor {
 public:
  MetadataBatcher(const CreateSettings& settings, const BatchProcessorConfig& config, ConsumerPtr next);
  ~MetadataBatcher() override;

  Capabilities capabilities() const override { return {.mutates_data = false}; }
  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;
  Status consume(Batch batch) override;

  size_t batchers() const;

 private:
  // The values of metadata_keys in `batch`'s metadata (every value of each key, in order).
  std::vector<std::vector<std::string>> valuesOf(const Batch& batch) const;

  CreateSettings settings_;
  BatchProcessorConfig config_;
  ConsumerPtr next_;
  Host* host_ = nullptr;
  mutable std::mutex mu_;
  bool stopped_ = false;
  std::map<std::vector<std::vector<std::string>>, std::unique_ptr<BatchProcessor>> batchers_;
  telemetry::Counter* over_limit_ = nullptr;
};

}  // namespace proflow::processors::batch
