#include "connectors/routing/routing_connector.h"

#include <spdlog/spdlog.h>

#include <stdexcept>

#include "core/flat/flat_split.h"
#include "core/graph/fanout_consumer.h"

namespace proflow::connectors::routing {
namespace {

ConsumerPtr fanoutOf(const std::vector<std::string>& pipelines, const ConnectorRoutes& routes) {
  if (pipelines.empty()) return nullptr;
  std::vector<ConsumerPtr> consumers;
  for (const auto& name : pipelines) consumers.push_back(routes.at(name));
  return graph::makeFanout(std::move(consumers));
}

}  // namespace

RoutingConnector::RoutingConnector(const CreateSettings& settings, const RoutingConnectorConfig& config,
                                   ConnectorRoutes routes)
    : logger_(settings.logger), error_mode_(*ottl::parseErrorMode(config.error_mode)) {
  auto counters = [&](Route& r, const std::string& label) {
    if (!settings.telemetry) return;
    telemetry::Labels labels = settings.telemetry->labels();
    labels.emplace_back("route", label);
    auto& registry = settings.telemetry->registry();
    const std::string& prefix = settings.telemetry->prefix();
    r.resources = &registry.counter(prefix + "routed_resources_total", "resources sent by each route", labels);
    r.batches = &registry.counter(prefix + "routed_batches_total", "batches sent by each route", labels);
  };
  for (size_t i = 0; i < config.table.size(); ++i) {
    Route r;
    std::string error;
    if (config.table[i].context == "request") {
      r.request = compileRequestRoute(config.table[i], &error);
      if (!r.request) throw std::invalid_argument("table[" + std::to_string(i) + "]: " + error);
    } else {
      r.condition = compileRoute(config.table[i], &error);
      if (!r.condition) throw std::invalid_argument("table[" + std::to_string(i) + "]: " + error);
    }
    r.next = fanoutOf(config.table[i].pipelines, routes);
    counters(r, std::to_string(i));
    routes_.push_back(std::move(r));
  }
  Route fallback;
  fallback.next = fanoutOf(config.default_pipelines, routes);
  counters(fallback, fallback.next ? "default" : "unrouted");
  routes_.push_back(std::move(fallback));
  if (settings.telemetry)
    condition_errors_ = &settings.telemetry->counter("condition_errors_total", "routing conditions that failed to evaluate");
}

Status RoutingConnector::classify(const Batch& batch, std::vector<uint32_t>* route_of) const {
  const flat::Batch& data = batch.data();
  const auto fallback = static_cast<uint32_t>(routes_.size() - 1);
  route_of->assign(data.resources.size(), fallback);
  std::vector<bool> decided(data.resources.size(), false);
  for (uint32_t i = 0; i + 1 < routes_.size(); ++i) {
    if (const auto& request = routes_[i].request) {
      // Asked once of the request: every resource not yet routed takes this route when it holds.
      const std::string value = batch.metadata() ? batch.metadata()->first(request->key) : std::string();
      if ((value == request->value) == request->equal)
        for (uint32_t r = 0; r < data.resources.size(); ++r)
          if (!decided[r]) {
            (*route_of)[r] = i;
            decided[r] = true;
          }
      continue;
    }
    const ottl::ConditionSet& condition = *routes_[i].condition;
    ottl::Evaluator ev(data, condition.memoSlots());
    for (uint32_t r = 0; r < data.resources.size(); ++r) {
      if (decided[r]) continue;
      ottl::RunStats stats;
      bool failed = false;
      const bool hit = condition.matches(ev, ottl::Item{r}, &stats, &failed);
      if (stats.errors > 0) {
        if (condition_errors_) condition_errors_->add(stats.errors);
        if (error_mode_ == ottl::ErrorMode::kPropagate)
          return Status::invalid("routing condition failed: " + stats.first_error);
        if (error_mode_ == ottl::ErrorMode::kIgnore) logger_->debug("routing condition failed: {}", stats.first_error);
      }
      if (hit) {
        (*route_of)[r] = i;
        decided[r] = true;
      }
    }
  }
  return Status::ok();
}

Status RoutingConnector::consume(Batch batch) {
  const flat::Batch& data = batch.data();
  std::vector<uint32_t> route_of;
  if (Status s = classify(batch, &route_of); !s.isOk()) return s;
  const auto routes = static_cast<uint32_t>(routes_.size());
  std::vector<uint64_t> resources(routes, 0);
  for (uint32_t r : route_of) ++resources[r];
  // Every resource one way: the batch goes as it is, uncut.
  std::vector<Batch> parts;
  for (uint32_t i = 0; i < routes; ++i)
    if (resources[i] == route_of.size() && !route_of.empty()) {
      parts.assign(routes, Batch());
      parts[i] = std::move(batch);
    }
  if (parts.empty())
    for (flat::Batch& cut : flat::splitByResource(data, route_of, routes))
      parts.push_back(Batch(std::move(cut)).withMetadataOf(batch));

  graph::CombinedAnswer answer;
  for (uint32_t i = 0; i < routes; ++i) {
    if (resources[i] == 0) continue;
    Route& route = routes_[i];
    if (route.resources) route.resources->add(resources[i]);
    if (!route.next) continue;  // unmatched and no default: dropped, as in the Collector
    if (route.batches) route.batches->add(1);
    answer.add(route.next->consume(std::move(parts[i])));
  }
  return answer.result();
}

}  // namespace proflow::connectors::routing
