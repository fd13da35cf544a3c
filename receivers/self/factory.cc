#include "receivers/self/factory.h"

#include "core/component/factory_helpers.h"
#include "receivers/self/self_receiver.h"

namespace proflow::receivers::self {
namespace {

class SelfReceiverFactory final : public ReceiverFactoryFor<SelfReceiverConfig> {
 public:
  std::string_view type() const override { return "self"; }

 protected:
  std::unique_ptr<Receiver> createReceiver(const CreateSettings& s, const SelfReceiverConfig& c,
                                           ConsumerPtr next) const override {
    return std::make_unique<SelfReceiver>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeSelfReceiverFactory() { return std::make_unique<SelfReceiverFactory>(); }

}  // namespace proflow::receivers::self
