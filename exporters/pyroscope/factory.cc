#include "exporters/pyroscope/factory.h"

#include "core/exporterhelper/exporter_helper.h"
#include "core/component/factory_helpers.h"
#include "exporters/pyroscope/pyroscope_sender.h"

namespace proflow::exporters::pyroscope {
namespace {

class PyroscopeExporterFactory final : public ExporterFactoryFor<PyroscopeExporterConfig> {
 public:
  std::string_view type() const override { return "pyroscope"; }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const PyroscopeExporterConfig& c) const override {
    return std::make_unique<exporterhelper::ExporterHelper>(s, c.helper, std::make_unique<PyroscopeSender>(s, c));
  }
};

}  // namespace

std::unique_ptr<Factory> makePyroscopeExporterFactory() { return std::make_unique<PyroscopeExporterFactory>(); }

}  // namespace proflow::exporters::pyroscope
