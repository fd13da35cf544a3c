#include "processors/transform/factory.h"

#include "core/component/factory_helpers.h"
#include "processors/transform/transform_processor.h"

namespace proflow::processors::transform {
namespace {

class TransformProcessorFactory final : public ProcessorFactoryFor<TransformConfig> {
 public:
  std::string_view type() const override { return "transform"; }

 protected:
  std::unique_ptr<Processor> createProcessor(const CreateSettings& s, const TransformConfig& c,
                                             ConsumerPtr next) const override {
    return std::make_unique<TransformProcessor>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeTransformProcessorFactory() { return std::make_unique<TransformProcessorFactory>(); }

}  // namespace proflow::processors::transform
