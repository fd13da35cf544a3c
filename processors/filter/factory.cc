#include "processors/filter/factory.h"

#include "core/component/factory_helpers.h"
#include "processors/filter/filter_processor.h"

namespace proflow::processors::filter {
namespace {

class FilterProcessorFactory final : public ProcessorFactoryFor<FilterConfig> {
 public:
  std::string_view type() const override { return "filter"; }

 protected:
  std::unique_ptr<Processor> createProcessor(const CreateSettings& s, const FilterConfig& c,
                                             ConsumerPtr next) const override {
    return std::make_unique<FilterProcessor>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeFilterProcessorFactory() { return std::make_unique<FilterProcessorFactory>(); }

}  // namespace proflow::processors::filter
