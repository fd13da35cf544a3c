#include "processors/batch/factory.h"

#include "core/component/factory_helpers.h"
#include "processors/batch/batch_processor.h"
#include "processors/batch/metadata_batcher.h"

namespace proflow::processors::batch {
namespace {

class BatchProcessorFactory final : public ProcessorFactoryFor<BatchProcessorConfig> {
 public:
  std::string_view type() const override { return "batch"; }

 protected:
  std::unique_ptr<Processor> createProcessor(const CreateSettings& s, const BatchProcessorConfig& c,
                                             ConsumerPtr next) const override {
    if (!c.metadata_keys.empty()) return std::make_unique<MetadataBatcher>(s, c, std::move(next));
    return std::make_unique<BatchProcessor>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeBatchProcessorFactory() { return std::make_unique<BatchProcessorFactory>(); }

}  // namespace proflow::processors::batch
