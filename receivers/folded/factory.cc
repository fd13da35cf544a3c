#include "receivers/folded/factory.h"

#include "core/component/factory_helpers.h"
#include "receivers/folded/folded_receiver.h"

namespace proflow::receivers::folded {
namespace {

class FoldedReceiverFactory final : public ReceiverFactoryFor<FoldedReceiverConfig> {
 public:
  std::string_view type() const override { return "folded"; }

 protected:
  std::unique_ptr<Receiver> createReceiver(const CreateSettings& s, const FoldedReceiverConfig& c,
                                           ConsumerPtr next) const override {
    return std::make_unique<FoldedReceiver>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeFoldedReceiverFactory() { return std::make_unique<FoldedReceiverFactory>(); }

}  // namespace proflow::receivers::folded
