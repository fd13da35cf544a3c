#include "receivers/datadog/factory.h"

#include "core/component/factory_helpers.h"
#include "receivers/datadog/datadog_receiver.h"

namespace proflow::receivers::datadog {
namespace {

class DatadogReceiverFactory final : public ReceiverFactoryFor<DatadogReceiverConfig> {
 public:
  std::string_view type() const override { return "datadog"; }

 protected:
  std::unique_ptr<Receiver> createReceiver(const CreateSettings& s, const DatadogReceiverConfig& c,
                                           ConsumerPtr next) const override {
    return std::make_unique<DatadogReceiver>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeDatadogReceiverFactory() { return std::make_unique<DatadogReceiverFactory>(); }

}  // namespace proflow::receivers::datadog
