#include "processors/compress/factory.h"

#include "core/component/factory_helpers.h"
#include "processors/compress/compress_processor.h"

namespace proflow::processors::compress {
namespace {

class CompressProcessorFactory final : public ProcessorFactoryFor<CompressConfig> {
 public:
  std::string_view type() const override { return "compress"; }

 protected:
  std::unique_ptr<Processor> createProcessor(const CreateSettings& s, const CompressConfig& c,
                                             ConsumerPtr next) const override {
    return std::make_unique<CompressProcessor>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeCompressProcessorFactory() { return std::make_unique<CompressProcessorFactory>(); }

}  // namespace proflow::processors::compress
