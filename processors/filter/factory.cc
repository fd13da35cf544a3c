#include "processors/filter/factory.h"

#include "core/component/factory_helpers.h"
#include "processors/filter/filter_processor.h"

namespace proflow::processors::filter {
namespace {

class FilterProcessorFactory final : public ProcessorFactoryFor<FilterConfig> {
 public:
  std::string_view type() const override { return "filter"; }
  std::string_view description() const override {
    return "drops profiles and samples by attributes, prunes frames with pprof drop_frames/keep_frames semantics";
  }

 protected:
  std::unique_ptr<Processor> createProcessor(const CreateSettings& s, const FilterConfig& c,
                                             ConsumerPtr next) const override {
    return std::make_unique<FilterProcessor>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeFilterProcessorFactory() { return std::make_unique<FilterProcessorFactory>(); }

}  // namespace proflow::processors::filter
