#include "processors/sample/factory.h"

#include "core/component/factory_helpers.h"
#include "processors/sample/sample_processor.h"

namespace proflow::processors::sample {
namespace {

class SampleProcessorFactory final : public ProcessorFactoryFor<SampleConfig> {
 public:
  std::string_view type() const override { return "sample"; }

 protected:
  std::unique_ptr<Processor> createProcessor(const CreateSettings& s, const SampleConfig& c,
                                             ConsumerPtr next) const override {
    return std::make_unique<SampleProcessor>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeSampleProcessorFactory() { return std::make_unique<SampleProcessorFactory>(); }

}  // namespace proflow::processors::sample
