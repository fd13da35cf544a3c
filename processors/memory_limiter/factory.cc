#include "processors/memory_limiter/factory.h"

#include "core/component/factory_helpers.h"
#include "processors/memory_limiter/memory_limiter_processor.h"

namespace proflow::processors::memory_limiter {
namespace {

class MemoryLimiterProcessorFactory final : public ProcessorFactoryFor<MemoryLimiterConfig> {
 public:
  std::string_view type() const override { return "memory_limiter"; }

 protected:
  std::unique_ptr<Processor> createProcessor(const CreateSettings& s, const MemoryLimiterConfig& c,
                                             ConsumerPtr next) const override {
    return std::make_unique<MemoryLimiterProcessor>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeMemoryLimiterProcessorFactory() {
  return std::make_unique<MemoryLimiterProcessorFactory>();
}

}  // namespace proflow::processors::memory_limiter
