// `proflow health`: asks a running daemon's telemetry endpoint for /healthz. Container health checks
// and Kubernetes exec probes run it where no HTTP client is installed (the image has none) and where
// the endpoint listens on localhost only (a sidecar), which an httpGet probe cannot reach.
#include <cstdio>
#include <string>

#include "cmd/proflow/builtins.h"
#include "cmd/proflow/commands.h"
#include "core/config/service_config.h"
#include "core/net/http_client.h"

namespace proflow {
namespace {

// A wildcard bind is asked on the loopback address of its family.
std::string dialableAddress(std::string address) {
  if (address.rfind("0.0.0.0:", 0) == 0) return "127.0.0.1" + address.substr(7);
  if (address.rfind("[::]:", 0) == 0) return "[::1]" + address.substr(4);
  if (!address.empty() && address[0] == ':') return "127.0.0.1" + address;
  return address;
}

// --address wins; else the telemetry address of the --config files; else the default.
bool telemetryAddress(const CliArgs& args, std::string* address) {
  for (const auto& [name, value] : args.options)
    if (name == "--address") *address = value;
  if (!address->empty() || args.configs.empty()) {
    if (address->empty()) *address = config::MetricsConfig{}.address;
    return true;
  }
  Registry registry;
  if (!registerBuiltins(registry).isOk()) return false;
  config::ServiceConfig cfg;
  std::string errors;
  std::vector<std::string> warnings;
  if (!config::loadServiceConfig(args.configs, registry, &cfg, &errors, &warnings).isOk()) {
    std::fprintf(stderr, "proflow health: invalid configuration:\n%s", errors.c_str());
    return false;
  }
  *address = cfg.telemetry.metrics.address;
  return true;
}

}  // namespace

int commandHealth(const CliArgs& args) {
  std::string address;
  if (!telemetryAddress(args, &address)) return 1;
  if (address.empty() || address == "none") {
    std::fprintf(stderr, "proflow health: the telemetry endpoint is turned off, nothing to ask\n");
    return 1;
  }
  net::HttpClient client({});
  const std::string url = "http://" + dialableAddress(address) + "/healthz";
  net::HttpResult r = client.request("GET", url, {}, {}, std::chrono::seconds(5));
  if (!r.status.isOk()) {
    std::fprintf(stderr, "proflow health: %s: %s\n", url.c_str(), r.status.message().c_str());
    return 1;
  }
  std::string body = r.body.substr(0, 200);
  while (!body.empty() && body.back() == '\n') body.pop_back();
  std::printf("%s: %d %s\n", url.c_str(), r.http_status, body.c_str());
  return r.http_status == 200 ? 0 : 1;
}

}  // namespace proflow
