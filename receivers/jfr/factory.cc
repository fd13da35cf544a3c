#include "receivers/jfr/factory.h"

#include "core/component/factory_helpers.h"
#include "receivers/jfr/jfr_receiver.h"

namespace proflow::receivers::jfr {
namespace {

class JfrReceiverFactory final : public ReceiverFactoryFor<JfrReceiverConfig> {
 public:
  std::string_view type() const override { return "jfr"; }

 protected:
  std::unique_ptr<Receiver> createReceiver(const CreateSettings& s, const JfrReceiverConfig& c,
                                           ConsumerPtr next) const override {
    return makeJfrReceiver(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeJfrReceiverFactory() { return std::make_unique<JfrReceiverFactory>(); }

}  // namespace proflow::receivers::jfr
