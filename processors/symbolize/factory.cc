#include "processors/symbolize/factory.h"

#include "core/component/factory_helpers.h"
#include "processors/symbolize/symbolize_processor.h"

namespace proflow {
namespace {

class SymbolizeFactory final : public ProcessorFactoryFor<symbolize::SymbolizeConfig> {
 public:
  std::string_view type() const override { return "symbolize"; }

 protected:
  std::unique_ptr<Processor> createProcessor(const CreateSettings& s, const symbolize::SymbolizeConfig& c,
                                             ConsumerPtr next) const override {
    return std::make_unique<symbolize::SymbolizeProcessor>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeSymbolizeProcessorFactory() { return std::make_unique<SymbolizeFactory>(); }

}  // namespace proflow
