#include "exporters/loadbalancing/factory.h"

#include "core/component/factory_helpers.h"
#include "exporters/loadbalancing/loadbalancing_exporter.h"

namespace proflow::exporters::loadbalancing {
namespace {

class LoadBalancingExporterFactory final : public ExporterFactoryFor<LoadBalancingExporterConfig> {
 public:
  std::string_view type() const override { return "loadbalancing"; }
  std::string_view description() const override {
    return "routes profiles by service or resource to OTLP backends (consistent hashing, static or DNS)";
  }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const LoadBalancingExporterConfig& c) const override {
    return std::make_unique<LoadBalancingExporter>(s, c);
  }
};

}  // namespace

std::unique_ptr<Factory> makeLoadBalancingExporterFactory() { return std::make_unique<LoadBalancingExporterFactory>(); }

}  // namespace proflow::exporters::loadbalancing
