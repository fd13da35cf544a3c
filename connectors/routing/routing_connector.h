// The `routing` connector: each resource of a batch goes to the pipelines of the first route whose
// condition it matches, else to `default_pipelines` (else nowhere). One batch per route is cut
// from the resources it got (the whole batch when all went one way), and the sender's answer is
// the routes' answer: a refusal of any pipeline reaches the client.
#pragma once

#include <vector>

#include "connectors/routing/config.h"
#include "core/component/factory.h"
#include "core/telemetry/metrics.h"

namespace proflow::connectors::routing {

class RoutingConnector final : public Connector {
 public:
  RoutingConnector(const CreateSettings& settings, const RoutingConnectorConfig& config, ConnectorRoutes routes);

  Status start(Host&) override { return Status::ok(); }
  void shutdown(Deadline) override {}
  Status consume(Batch batch) override;

 private:
  struct Route {
    std::optional<ottl::ConditionSet> condition;  // resource context; none for the default route
    std::optional<RequestCondition> request;      // request context: the whole batch by its metadata
    ConsumerPtr next;                             // the route's pipelines as one fan-out; null: drop
    telemetry::Counter* resources = nullptr;      // resources sent this way
    telemetry::Counter* batches = nullptr;
  };
  // The route of each resource: an index into routes_ (the last one is the default).
  Status classify(const Batch& batch, std::vector<uint32_t>* route_of) const;

  std::shared_ptr<spdlog::logger> logger_;
  ottl::ErrorMode error_mode_;
  std::vector<Route> routes_;
  telemetry::Counter* condition_errors_ = nullptr;
};

}  // namespace proflow::connectors::routing
