#include "exporters/nats/factory.h"

#include "core/exporterhelper/exporter_helper.h"
#include "core/component/factory_helpers.h"
#include "exporters/nats/nats_sender.h"

namespace proflow::exporters::nats {
namespace {

class NatsExporterFactory final : public ExporterFactoryFor<NatsExporterConfig> {
 public:
  std::string_view type() const override { return "nats"; }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const NatsExporterConfig& c) const override {
    return std::make_unique<exporterhelper::ExporterHelper>(s, c.helper, std::make_unique<NatsSender>(s, c));
  }
};

}  // namespace

std::unique_ptr<Factory> makeNatsExporterFactory() { return std::make_unique<NatsExporterFactory>(); }

}  // namespace proflow::exporters::nats
