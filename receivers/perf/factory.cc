#include "receivers/perf/factory.h"

#include "core/component/factory_helpers.h"
#include "receivers/perf/perf_receiver.h"

namespace proflow::receivers::perf {
namespace {

class PerfReceiverFactory final : public ReceiverFactoryFor<PerfReceiverConfig> {
 public:
  std::string_view type() const override { return "perf"; }

 protected:
  std::unique_ptr<Receiver> createReceiver(const CreateSettings& s, const PerfReceiverConfig& c,
                                           ConsumerPtr next) const override {
    return makePerfReceiver(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makePerfReceiverFactory() { return std::make_unique<PerfReceiverFactory>(); }

}  // namespace proflow::receivers::perf
