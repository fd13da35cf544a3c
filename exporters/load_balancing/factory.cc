#include "exporters/load_balancing/factory.h"

#include "core/component/factory_helpers.h"
#include "exporters/load_balancing/loadbalancing_exporter.h"

namespace proflow::exporters::loadbalancing {
namespace {

class LoadBalancingExporterFactory final : public ExporterFactoryFor<LoadBalancingExporterConfig> {
 public:
  std::string_view type() const override { return "load_balancing"; }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const LoadBalancingExporterConfig& c) const override {
    return std::make_unique<LoadBalancingExporter>(s, c);
  }
};

}  // namespace

std::unique_ptr<Factory> makeLoadBalancingExporterFactory() { return std::make_unique<LoadBalancingExporterFactory>(); }

}  // namespace proflow::exporters::loadbalancing
