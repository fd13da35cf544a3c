#include "exporters/debug/factory.h"

#include "core/component/factory_helpers.h"
#include "exporters/debug/debug_exporter.h"

namespace proflow::exporters::debug {
namespace {

class DebugExporterFactory final : public ExporterFactoryFor<DebugExporterConfig> {
 public:
  std::string_view type() const override { return "debug"; }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const DebugExporterConfig& c) const override {
    return std::make_unique<DebugExporter>(s, c);
  }
};

}  // namespace

std::unique_ptr<Factory> makeDebugExporterFactory() { return std::make_unique<DebugExporterFactory>(); }

}  // namespace proflow::exporters::debug
