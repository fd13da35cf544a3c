#include "connectors/routing/factory.h"

#include "connectors/routing/routing_connector.h"
#include "core/component/factory_helpers.h"

namespace proflow::connectors::routing {
namespace {

class RoutingConnectorFactory final : public ConnectorFactoryFor<RoutingConnectorConfig> {
 public:
  std::string_view type() const override { return "routing"; }

 protected:
  void checkConnectorRoutes(const RoutingConnectorConfig& c, const std::set<std::string>& routes,
                            config::ValidationContext& ctx) const override {
    c.checkRoutes(routes, ctx);
  }
  std::unique_ptr<Connector> createConnector(const CreateSettings& s, const RoutingConnectorConfig& c,
                                             ConnectorRoutes routes) const override {
    return std::make_unique<RoutingConnector>(s, c, std::move(routes));
  }
};

}  // namespace

std::unique_ptr<Factory> makeRoutingConnectorFactory() { return std::make_unique<RoutingConnectorFactory>(); }

}  // namespace proflow::connectors::routing
