#include "receivers/pprof/factory.h"

#include "core/component/factory_helpers.h"
#include "receivers/pprof/pprof_receiver.h"

namespace proflow::receivers::pprof {
namespace {

class PprofReceiverFactory final : public ReceiverFactoryFor<PprofReceiverConfig> {
 public:
  std::string_view type() const override { return "pprof"; }

 protected:
  std::unique_ptr<Receiver> createReceiver(const CreateSettings& s, const PprofReceiverConfig& c,
                                           ConsumerPtr next) const override {
    return std::make_unique<PprofReceiver>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makePprofReceiverFactory() { return std::make_unique<PprofReceiverFactory>(); }

}  // namespace proflow::receivers::pprof
