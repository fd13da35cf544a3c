// `proflow health`: asks a running daemon's telemetry endpoint for /healthz. Container health checks
// and Kubernetes exec probes run it where no HTTP client is installed (the image has none) and where
// the endpoint listens on localhost only (a sidecar), which an httpGet probe cannot reach. An
// endpoint with `tls` is asked over HTTPS.
#include <cstdio>
#include <string>

#include "cmd/proflow/builtins.h"
#include "cmd/proflow/commands.h"
#include "core/config/service_config.h"
#include "core/net/http_client.h"
#include "core/net/loopback.h"

namespace proflow {
namespace {

// Where to ask and how to trust the answer.
struct Target {
  std::string address;  // host:port as configured
  bool tls = false;
  net::TlsClientOptions trust;
};

// A wildcard bind is asked on the loopback address of its family.
std::string dialableAddress(std::string address) {
  if (address.rfind("0.0.0.0:", 0) == 0) return "127.0.0.1" + address.substr(7);
  if (address.rfind("[::]:", 0) == 0) return "[::1]" + address.substr(4);
  if (!address.empty() && address[0] == ':') return "127.0.0.1" + address;
  return address;
}

std::string option(const CliArgs& args, const std::string& name) {
  std::string value;
  for (const auto& [n, v] : args.options)
    if (n == name) value = v;
  return value;
}

bool flag(const CliArgs& args, const std::string& name) {
  for (const auto& f : args.flags)
    if (f == name) return true;
  return false;
}

// --address wins (an https:// prefix asks over TLS); else the telemetry address of the --config
// files, over TLS when it has a `tls` block, trusting the certificate the daemon presents (its
// cert_file) unless --ca-file names another bundle; else the default.
bool resolveTarget(const CliArgs& args, Target* t) {
  t->address = option(args, "--address");
  for (const char* scheme : {"https://", "http://"}) {
    if (t->address.rfind(scheme, 0) != 0) continue;
    t->tls = std::string(scheme) == "https://";
    t->address = t->address.substr(std::string(scheme).size());
  }
  if (t->address.empty() && !args.configs.empty()) {
    Registry registry;
    if (!registerBuiltins(registry).isOk()) return false;
    config::ServiceConfig cfg;
    std::string errors;
    std::vector<std::string> warnings;
    if (!config::loadServiceConfig(args.configs, registry, &cfg, &errors, &warnings).isOk()) {
      std::fprintf(stderr, "proflow health: invalid configuration:\n%s", errors.c_str());
      return false;
    }
    t->address = cfg.telemetry.metrics.address.empty() ? "none" : cfg.telemetry.metrics.address;
    if (const auto& tls = cfg.telemetry.metrics.tls) {
      t->tls = true;
      t->trust.ca_file = tls->cert_file;
    }
  }
  if (t->address.empty()) t->address = config::MetricsConfig{}.address;
  if (const std::string ca = option(args, "--ca-file"); !ca.empty()) t->trust.ca_file = ca;
  t->trust.cert_file = option(args, "--cert-file");
  t->trust.key_file = option(args, "--key-file");
  t->trust.insecure_skip_verify = flag(args, "--insecure-skip-verify");
  t->trust.server_name_override = option(args, "--server-name");
  if (flag(args, "--tls") || !t->trust.cert_file.empty() || !option(args, "--ca-file").empty()) t->tls = true;
  return true;
}

}  // namespace

int commandHealth(const CliArgs& args) {
  Target target;
  if (!resolveTarget(args, &target)) return 1;
  if (target.address == "none") {
    std::fprintf(stderr, "proflow health: the telemetry endpoint is turned off, nothing to ask\n");
    return 1;
  }
  const std::string dial = dialableAddress(target.address);
  // A certificate for the local daemon names `localhost` more often than 127.0.0.1: a loopback or
  // wildcard address is verified as localhost unless --server-name says otherwise.
  const std::string host = dial.substr(0, dial.rfind(':'));
  if (target.tls && target.trust.server_name_override.empty() &&
      (net::isLoopbackHost(host) || dial != target.address))
    target.trust.server_name_override = "localhost";
  net::HttpClientOptions options;
  options.tls = target.trust;
  net::HttpClient client(options);
  const std::string url = (target.tls ? "https://" : "http://") + dial + "/healthz";
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
