#include "exporters/datadog/factory.h"

#include "core/exporterhelper/exporter_helper.h"
#include "core/component/factory_helpers.h"
#include "exporters/datadog/datadog_sender.h"

namespace proflow::exporters::datadog {
namespace {

class DatadogExporterFactory final : public ExporterFactoryFor<DatadogExporterConfig> {
 public:
  std::string_view type() const override { return "datadog"; }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const DatadogExporterConfig& c) const override {
    return std::make_unique<exporterhelper::ExporterHelper>(s, c.helper, std::make_unique<DatadogSender>(s, c));
  }
};

}  // namespace

std::unique_ptr<Factory> makeDatadogExporterFactory() { return std::make_unique<DatadogExporterFactory>(); }

}  // namespace proflow::exporters::datadog
