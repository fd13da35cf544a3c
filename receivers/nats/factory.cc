#include "receivers/nats/factory.h"

#include "core/component/factory_helpers.h"
#include "receivers/nats/nats_receiver.h"

namespace proflow::receivers::nats {
namespace {

class NatsReceiverFactory final : public ReceiverFactoryFor<NatsReceiverConfig> {
 public:
  std::string_view type() const override { return "nats"; }

 protected:
  std::unique_ptr<Receiver> createReceiver(const CreateSettings& s, const NatsReceiverConfig& c,
                                           ConsumerPtr next) const override {
    return std::make_unique<NatsReceiver>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeNatsReceiverFactory() { return std::make_unique<NatsReceiverFactory>(); }

}  // namespace proflow::receivers::nats
