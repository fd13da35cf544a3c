#include "receivers/otlp/factory.h"

#include "core/component/factory_helpers.h"
#include "receivers/otlp/otlp_receiver.h"

namespace proflow::receivers::otlp {
namespace {

class OtlpReceiverFactory final : public ReceiverFactoryFor<OtlpReceiverConfig> {
 public:
  std::string_view type() const override { return "otlp"; }

 protected:
  std::unique_ptr<Receiver> createReceiver(const CreateSettings& s, const OtlpReceiverConfig& c,
                                           ConsumerPtr next) const override {
    return std::make_unique<OtlpReceiver>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeOtlpReceiverFactory() { return std::make_unique<OtlpReceiverFactory>(); }

}  // namespace proflow::receivers::otlp
