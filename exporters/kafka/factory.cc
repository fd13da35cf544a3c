#include "exporters/kafka/factory.h"

#include "core/exporterhelper/exporter_helper.h"
#include "core/component/factory_helpers.h"
#include "exporters/kafka/kafka_sender.h"

namespace proflow::exporters::kafka {
namespace {

class KafkaExporterFactory final : public ExporterFactoryFor<KafkaExporterConfig> {
 public:
  std::string_view type() const override { return "kafka"; }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const KafkaExporterConfig& c) const override {
    return std::make_unique<exporterhelper::ExporterHelper>(s, c.helper, std::make_unique<KafkaSender>(s, c));
  }
};

}  // namespace

std::unique_ptr<Factory> makeKafkaExporterFactory() { return std::make_unique<KafkaExporterFactory>(); }

}  // namespace proflow::exporters::kafka
