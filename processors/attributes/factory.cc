#include "processors/attributes/factory.h"

#include "core/component/factory_helpers.h"
#include "processors/attributes/attributes_processor.h"

namespace proflow::processors::attributes {
namespace {

class AttributesProcessorFactory final : public ProcessorFactoryFor<AttributesProcessorConfig> {
 public:
  std::string_view type() const override { return "attributes"; }

 protected:
  std::unique_ptr<Processor> createProcessor(const CreateSettings& s, const AttributesProcessorConfig& c,
                                             ConsumerPtr next) const override {
    return std::make_unique<AttributesProcessor>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeAttributesProcessorFactory() { return std::make_unique<AttributesProcessorFactory>(); }

}  // namespace proflow::processors::attributes
