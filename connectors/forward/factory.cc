#include "connectors/forward/factory.h"

#include "connectors/forward/forward_connector.h"
#include "core/component/factory_helpers.h"

namespace proflow::connectors::forward {
namespace {

class ForwardConnectorFactory final : public ConnectorFactoryFor<ForwardConnectorConfig> {
 public:
  std::string_view type() const override { return "forward"; }

 protected:
  std::unique_ptr<Connector> createConnector(const CreateSettings&, const ForwardConnectorConfig&,
                                             ConnectorRoutes routes) const override {
    return std::make_unique<ForwardConnector>(std::move(routes));
  }
};

}  // namespace

std::unique_ptr<Factory> makeForwardConnectorFactory() { return std::make_unique<ForwardConnectorFactory>(); }

}  // namespace proflow::connectors::forward
