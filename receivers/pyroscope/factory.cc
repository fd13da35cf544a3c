#include "receivers/pyroscope/factory.h"

#include "core/component/factory_helpers.h"
#include "receivers/pyroscope/pyroscope_receiver.h"

namespace proflow::receivers::pyroscope {
namespace {

class PyroscopeReceiverFactory final : public ReceiverFactoryFor<PyroscopeReceiverConfig> {
 public:
  std::string_view type() const override { return "pyroscope"; }

 protected:
  std::unique_ptr<Receiver> createReceiver(const CreateSettings& s, const PyroscopeReceiverConfig& c,
                                           ConsumerPtr next) const override {
    return std::make_unique<PyroscopeReceiver>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makePyroscopeReceiverFactory() { return std::make_unique<PyroscopeReceiverFactory>(); }

}  // namespace proflow::receivers::pyroscope
