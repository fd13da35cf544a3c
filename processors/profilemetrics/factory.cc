#include "processors/profilemetrics/factory.h"

#include "core/component/factory_helpers.h"
#include "processors/profilemetrics/profilemetrics_processor.h"

namespace proflow::processors::profilemetrics {
namespace {

class ProfileMetricsProcessorFactory final : public ProcessorFactoryFor<ProfileMetricsConfig> {
 public:
  std::string_view type() const override { return "profilemetrics"; }

 protected:
  std::unique_ptr<Processor> createProcessor(const CreateSettings& s, const ProfileMetricsConfig& c,
                                             ConsumerPtr next) const override {
    return std::make_unique<ProfileMetricsProcessor>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeProfileMetricsProcessorFactory() {
  return std::make_unique<ProfileMetricsProcessorFactory>();
}

}  // namespace proflow::processors::profilemetrics
