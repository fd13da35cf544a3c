// The scenario every broker pair is tested in, with real daemons: an agent (otlp receiver -> broker
// exporter) -> broker -> two gateway replicas (broker receiver -> otlp_grpc exporter) -> a counting sink.
// N numbered profiles are sent (each its own service.name); mid-stream one gateway is killed with
// SIGKILL and restarted, later the sink is stopped for a while, and while it is down the other
// gateway is killed and restarted too. The second half of the profiles is sent only once the sink
// is down, so the outage always meets traffic however long the first restart took. Every profile
// the agent acknowledged must arrive at least once; duplicates are counted.
#pragma once

#include <functional>
#include <set>
#include <string>

namespace proflow::testing {

struct BrokerScenario {
  std::string type;           // component type on both sides: "nats" or "kafka"
  std::string exporter_yaml;  // the agent exporter's keys, each line indented by 4 spaces
  std::string receiver_yaml;  // the gateway receiver's keys, each line indented by 4 spaces
  int profiles = 300;
  int sink_down_ms = 3000;
  int send_interval_ms = 10;  // between two profiles of the client
  // When set, traffic starts only once every gateway reports this metric above 0 (e.g. partitions
  // assigned), and the scenario goes on after the first restart only once the restarted gateway
  // does, so the disruptions hit gateways that are working.
  std::string ready_metric;
  // When set, the sink stays down until the gateways report this metric (their refusals of what
  // the sink could not take) above its value when the sink stopped, or 60 s passed:
  // ScenarioResult::outage_refused says which.
  std::string refusal_metric;
};

struct ScenarioResult {
  size_t acknowledged = 0;
  size_t arrived = 0;     // distinct acknowledged profiles that arrived
  size_t duplicates = 0;  // arrivals beyond the first, over all profiles
  std::set<std::string> missing;
  std::string logs;             // daemon logs, for failure messages
  std::string gateway_metrics;  // /metrics of each gateway process (killed ones just before the kill)
  bool outage_refused = false;  // the gateways counted refusal_metric while the sink was down

  // Sum of the samples of `name` (any labels) in gateway_metrics.
  double gatewayMetric(const std::string& name) const;
};

// Runs the scenario; `dir` holds configs and logs. Fatal test failures (a daemon not starting) are
// reported through gtest and end the run early.
ScenarioResult runBrokerScenario(const BrokerScenario& scenario, const std::string& dir);

}  // namespace proflow::testing
