#include "processors/resource/factory.h"

#include "core/component/factory_helpers.h"
#include "processors/resource/resource_processor.h"

namespace proflow::processors::resource {
namespace {

class ResourceProcessorFactory final : public ProcessorFactoryFor<ResourceProcessorConfig> {
 public:
  std::string_view type() const override { return "resource"; }

 protected:
  std::unique_ptr<Processor> createProcessor(const CreateSettings& s, const ResourceProcessorConfig& c,
                                             ConsumerPtr next) const override {
    return std::make_unique<ResourceProcessor>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeResourceProcessorFactory() { return std::make_unique<ResourceProcessorFactory>(); }

}  // namespace proflow::processors::resource
