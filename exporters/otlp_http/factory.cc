#include "exporters/otlp_http/factory.h"

#include "core/exporterhelper/exporter_helper.h"
#include "core/component/factory_helpers.h"
#include "exporters/otlp_http/http_sender.h"

namespace proflow::exporters::otlphttp {
namespace {

class OtlpHttpExporterFactory final : public ExporterFactoryFor<OtlpHttpExporterConfig> {
 public:
  std::string_view type() const override { return "otlp_http"; }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const OtlpHttpExporterConfig& c) const override {
    return std::make_unique<exporterhelper::ExporterHelper>(s, c.helper, std::make_unique<HttpSender>(s, c));
  }
};

}  // namespace

std::unique_ptr<Factory> makeOtlpHttpExporterFactory() { return std::make_unique<OtlpHttpExporterFactory>(); }

}  // namespace proflow::exporters::otlphttp
