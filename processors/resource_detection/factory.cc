#include "processors/resource_detection/factory.h"

#include "core/component/factory_helpers.h"
#include "processors/resource_detection/resourcedetection_processor.h"

namespace proflow::processors::resourcedetection {
namespace {

class ResourceDetectionProcessorFactory final : public ProcessorFactoryFor<ResourceDetectionConfig> {
 public:
  std::string_view type() const override { return "resource_detection"; }

 protected:
  std::unique_ptr<Processor> createProcessor(const CreateSettings& s, const ResourceDetectionConfig& c,
                                             ConsumerPtr next) const override {
    return std::make_unique<ResourceDetectionProcessor>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeResourceDetectionProcessorFactory() {
  return std::make_unique<ResourceDetectionProcessorFactory>();
}

}  // namespace proflow::processors::resourcedetection
