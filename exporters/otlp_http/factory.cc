#include "exporters/otlphttp/factory.h"

#include "core/exporterhelper/exporter_helper.h"
#include "core/component/factory_helpers.h"
#include "exporters/otlphttp/http_sender.h"

namespace proflow::exporters::otlphttp {
namespace {

class OtlpHttpExporterFactory final : public ExporterFactoryFor<OtlpHttpExporterConfig> {
 public:
  std::string_view type() const override { return "otlphttp"; }
  std::string_view description() const override { return "OTLP profiles over HTTP (protobuf or JSON)"; }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const OtlpHttpExporterConfig& c) const override {
    return std::make_unique<exporterhelper::ExporterHelper>(s, c.helper, std::make_unique<HttpSender>(s, c));
  }
};

}  // namespace

std::unique_ptr<Factory> makeOtlpHttpExporterFactory() { return std::make_unique<OtlpHttpExporterFactory>(); }

}  // namespace proflow::exporters::otlphttp
