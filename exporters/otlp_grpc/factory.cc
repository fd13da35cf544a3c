#include "exporters/otlp_grpc/factory.h"

#include "core/exporterhelper/exporter_helper.h"
#include "core/component/factory_helpers.h"
#include "core/exporterhelper/otlp_grpc_sender.h"
#include "exporters/otlp_grpc/config.h"

namespace proflow::exporters::otlp {
namespace {

class OtlpExporterFactory final : public ExporterFactoryFor<OtlpExporterConfig> {
 public:
  std::string_view type() const override { return "otlp_grpc"; }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const OtlpExporterConfig& c) const override {
    return std::make_unique<exporterhelper::ExporterHelper>(s, c.helper, std::make_unique<exporterhelper::OtlpGrpcSender>(s, c));
  }
};

}  // namespace

std::unique_ptr<Factory> makeOtlpExporterFactory() { return std::make_unique<OtlpExporterFactory>(); }

}  // namespace proflow::exporters::otlp
