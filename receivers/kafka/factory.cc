#include "receivers/kafka/factory.h"

#include "core/component/factory_helpers.h"
#include "receivers/kafka/kafka_receiver.h"

namespace proflow::receivers::kafka {
namespace {

class KafkaReceiverFactory final : public ReceiverFactoryFor<KafkaReceiverConfig> {
 public:
  std::string_view type() const override { return "kafka"; }

 protected:
  std::unique_ptr<Receiver> createReceiver(const CreateSettings& s, const KafkaReceiverConfig& c,
                                           ConsumerPtr next) const override {
    return std::make_unique<KafkaReceiver>(s, c, std::move(next));
  }
};

}  // namespace

std::unique_ptr<Factory> makeKafkaReceiverFactory() { return std::make_unique<KafkaReceiverFactory>(); }

}  // namespace proflow::receivers::kafka
