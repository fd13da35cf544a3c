#include "exporters/parca/factory.h"

#include "core/exporterhelper/exporter_helper.h"
#include "core/component/factory_helpers.h"
#include "exporters/parca/parca_sender.h"

namespace proflow::exporters::parca {
namespace {

class ParcaExporterFactory final : public ExporterFactoryFor<ParcaExporterConfig> {
 public:
  std::string_view type() const override { return "parca"; }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const ParcaExporterConfig& c) const override {
    return std::make_unique<exporterhelper::ExporterHelper>(s, c.helper, std::make_unique<ParcaSender>(s, c));
  }
};

}  // namespace

std::unique_ptr<Factory> makeParcaExporterFactory() { return std::make_unique<ParcaExporterFactory>(); }

}  // namespace proflow::exporters::parca
