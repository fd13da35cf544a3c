#include "connectors/forward/forward_connector.h"

#include "core/graph/fanout_consumer.h"

namespace proflow::connectors::forward {
namespace {

std::vector<ConsumerPtr> consumersOf(ConnectorRoutes routes) {
  std::vector<ConsumerPtr> out;
  for (auto& [pipeline, consumer] : routes) out.push_back(std::move(consumer));
  return out;
}

}  // namespace

ForwardConnector::ForwardConnector(ConnectorRoutes routes) : next_(graph::makeFanout(consumersOf(std::move(routes)))) {}

}  // namespace proflow::connectors::forward
