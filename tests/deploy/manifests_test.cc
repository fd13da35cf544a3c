// The deployment manifests under deploy/kubernetes hold together: every config they ship passes
// `proflow validate`, and the objects refer to each other correctly (the config a container is told
// to read is mounted from a ConfigMap that has it, probes hit the port the telemetry endpoint listens
// on, the agents resolve the gateways' headless Service, the autoscaler and the disruption budget
// select the gateway's pods).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

namespace fs = std::filesystem;

struct Manifest {
  std::string file;
  std::vector<YAML::Node> objects;

  std::vector<YAML::Node> ofKind(const std::string& kind) const {
    std::vector<YAML::Node> out;
    for (const auto& o : objects)
      if (o["kind"].as<std::string>() == kind) out.push_back(o);
    return out;
  }
  YAML::Node find(const std::string& kind, const std::string& name) const {
    for (const auto& o : ofKind(kind))
      if (o["metadata"]["name"].as<std::string>() == name) return o;
    return YAML::Node();
  }
};

Manifest load(const std::string& name) {
  Manifest m{name, {}};
  const fs::path path = fs::path(PROFLOW_SOURCE_DIR) / "deploy" / "kubernetes" / name;
  for (auto& doc : YAML::LoadAllFromFile(path.string()))
    if (doc.IsMap()) m.objects.push_back(doc);
  return m;
}

// The workloads (Deployment, DaemonSet) of a manifest.
std::vector<YAML::Node> workloads(const Manifest& m) {
  auto out = m.ofKind("Deployment");
  for (auto& d : m.ofKind("DaemonSet")) out.push_back(d);
  return out;
}

YAML::Node proflowContainer(const YAML::Node& workload) {
  for (const auto& c : workload["spec"]["template"]["spec"]["containers"])
    if (c["name"].as<std::string>() == "proflow") return c;
  return YAML::Node();
}

// The config the proflow container reads, taken from the ConfigMap volume mounted over its path.
std::string configOf(const Manifest& m, const YAML::Node& workload) {
  YAML::Node c = proflowContainer(workload);
  const auto args = c["args"].as<std::vector<std::string>>();
  auto it = std::find(args.begin(), args.end(), "--config");
  if (it == args.end() || it + 1 == args.end()) return "";
  const fs::path config_path = *(it + 1);
  for (const auto& mount : c["volumeMounts"]) {
    if (mount["mountPath"].as<std::string>() != config_path.parent_path().string()) continue;
    for (const auto& v : workload["spec"]["template"]["spec"]["volumes"]) {
      if (v["name"].as<std::string>() != mount["name"].as<std::string>() || !v["configMap"]) continue;
      YAML::Node cm = m.find("ConfigMap", v["configMap"]["name"].as<std::string>());
      if (cm && cm["data"][config_path.filename().string()])
        return cm["data"][config_path.filename().string()].as<std::string>();
    }
  }
  return "";
}

int validate(const std::string& config, std::string* out) {
  testing::TempDir dir;
  const std::string path = dir.write("proflow.yaml", config);
  return testing::validateShippedConfig(path, out);
}

class KubernetesManifest : public ::testing::TestWithParam<std::string> {};

TEST_P(KubernetesManifest, ShipsConfigsThatValidateAndProbesOnTheTelemetryPort) {
  ::setenv("BACKEND_ENDPOINT", "otlp-backend.observability:4317", 1);  // set by the container's env
  Manifest m = load(GetParam());
  ASSERT_FALSE(workloads(m).empty()) << m.file;
  for (const auto& w : workloads(m)) {
    const std::string name = w["metadata"]["name"].as<std::string>();
    SCOPED_TRACE(m.file + ": " + name);
    YAML::Node c = proflowContainer(w);
    ASSERT_TRUE(c) << "no container named proflow";
    const std::string config = configOf(m, w);
    ASSERT_FALSE(config.empty()) << "--config does not name a file of a mounted ConfigMap";
    std::string out;
    EXPECT_EQ(validate(config, &out), 0) << out;

    const YAML::Node cfg = YAML::Load(config);
    const std::string address = cfg["service"]["telemetry"]["metrics"]["address"].as<std::string>();
    const int telemetry_port = std::stoi(address.substr(address.rfind(':') + 1));
    std::map<std::string, int> ports;
    for (const auto& p : c["ports"]) ports[p["name"].as<std::string>()] = p["containerPort"].as<int>();
    for (const char* probe : {"readinessProbe", "livenessProbe"}) {
      if (!c[probe]) continue;
      if (c[probe]["exec"]) {  // a localhost-only endpoint: the binary asks it itself
        auto cmd = c[probe]["exec"]["command"].as<std::vector<std::string>>();
        ASSERT_GE(cmd.size(), 2u);
        EXPECT_EQ(cmd[1], "health");
        EXPECT_NE(std::find(cmd.begin(), cmd.end(), "127.0.0.1:" + std::to_string(telemetry_port)), cmd.end());
        continue;
      }
      EXPECT_EQ(c[probe]["httpGet"]["path"].as<std::string>(), "/healthz");
      const std::string port = c[probe]["httpGet"]["port"].as<std::string>();
      ASSERT_TRUE(ports.count(port)) << probe << " names port " << port << " the container does not declare";
      EXPECT_EQ(ports[port], telemetry_port) << probe;
    }
    // Every receiver endpoint the config opens on a port is declared by the container (or localhost only).
    for (const auto& r : cfg["receivers"]) {
      std::vector<std::string> endpoints;
      if (r.second["endpoint"]) endpoints.push_back(r.second["endpoint"].as<std::string>());
      if (r.second["protocols"])
        for (const auto& p : r.second["protocols"]) endpoints.push_back(p.second["endpoint"].as<std::string>());
      for (const auto& e : endpoints) {
        if (e.rfind("127.0.0.1:", 0) == 0) continue;
        const int port = std::stoi(e.substr(e.rfind(':') + 1));
        bool declared = false;
        for (const auto& [n, p] : ports) declared |= p == port;
        EXPECT_TRUE(declared) << r.first.as<std::string>() << " listens on " << e << ", not a declared containerPort";
      }
    }
  }
}

// A telemetry endpoint on a non-loopback address serves the status page's data and reload only with
// an authenticator: every shipped config that listens beyond loopback names one, so its status page
// works for whoever has the password and for nobody else.
TEST(ShippedConfigs, TelemetryBeyondLoopbackIsBehindAnAuthenticator) {
  std::vector<std::pair<std::string, std::string>> configs;  // name -> text
  for (const char* f : {"config/gateway.yaml", "config/agent.yaml", "config/proflow.yaml", "docker/proflow.yaml",
                        "deploy/compose/agent.yaml", "deploy/compose/gateway.yaml"}) {
    std::ifstream in(fs::path(PROFLOW_SOURCE_DIR) / f);
    configs.emplace_back(f, std::string(std::istreambuf_iterator<char>(in), {}));
  }
  for (const char* f : {"gateway.yaml", "agent-daemonset.yaml", "sidecar-example.yaml"}) {
    Manifest m = load(f);
    for (const auto& w : workloads(m)) configs.emplace_back(f, configOf(m, w));
  }
  int guarded = 0;
  for (const auto& [name, text] : configs) {
    SCOPED_TRACE(name);
    const YAML::Node metrics = YAML::Load(text)["service"]["telemetry"]["metrics"];
    ASSERT_TRUE(metrics && metrics["address"]);
    const std::string address = metrics["address"].as<std::string>();
    if (address.find("127.0.0.1:") != std::string::npos) continue;
    ASSERT_TRUE(metrics["auth"]) << address << " without an authenticator";
    const std::string id = metrics["auth"]["authenticator"].as<std::string>();
    EXPECT_TRUE(YAML::Load(text)["extensions"][id]) << id;
    ++guarded;
  }
  EXPECT_GE(guarded, 6) << "config/gateway.yaml, docker/proflow.yaml, both DaemonSet/Deployment configs and both "
                           "compose configs";
}

INSTANTIATE_TEST_SUITE_P(Deploy, KubernetesManifest,
                         ::testing::Values("gateway.yaml", "agent-daemonset.yaml", "sidecar-example.yaml"),
                         [](const auto& info) {
                           std::string n = info.param.substr(0, info.param.find('.'));
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

TEST(KubernetesManifests, AgentsResolveTheGatewaysHeadlessService) {
  Manifest gw = load("gateway.yaml");
  Manifest agent = load("agent-daemonset.yaml");
  YAML::Node headless;
  for (const auto& s : gw.ofKind("Service"))
    if (s["spec"]["clusterIP"] && s["spec"]["clusterIP"].as<std::string>() == "None") headless = s;
  ASSERT_TRUE(headless) << "gateway.yaml has no headless Service";
  const std::string dns = headless["metadata"]["name"].as<std::string>() + "." +
                          headless["metadata"]["namespace"].as<std::string>() + ".svc.cluster.local";
  const YAML::Node cfg = YAML::Load(configOf(agent, agent.ofKind("DaemonSet").at(0)));
  const YAML::Node resolver = cfg["exporters"]["load_balancing"]["resolver"]["dns"];
  EXPECT_EQ(resolver["hostname"].as<std::string>(), dns);
  bool port_served = false;
  for (const auto& p : headless["spec"]["ports"]) port_served |= p["port"].as<int>() == resolver["port"].as<int>();
  EXPECT_TRUE(port_served) << "the headless Service does not serve port " << resolver["port"].as<int>();
  // hostPID: the process and container detectors see the node's processes.
  EXPECT_TRUE(agent.ofKind("DaemonSet").at(0)["spec"]["template"]["spec"]["hostPID"].as<bool>());
}

// A pipeline that looks up the pids its senders name (trust_pids) is fed only by receivers on the
// pod's loopback (a profiler container of the pod), never by the hostPorts applications reach; and
// no command line (argv may hold secrets) is attached by default.
TEST(KubernetesManifests, TheAgentTrustsPidsOnlyFromItsPodsLoopback) {
  Manifest agent = load("agent-daemonset.yaml");
  const YAML::Node cfg = YAML::Load(configOf(agent, agent.ofKind("DaemonSet").at(0)));
  auto endpointsOf = [&](const std::string& receiver) {
    std::vector<std::string> out;
    const YAML::Node r = cfg["receivers"][receiver];
    if (r["endpoint"]) out.push_back(r["endpoint"].as<std::string>());
    if (r["protocols"])
      for (const auto& p : r["protocols"]) out.push_back(p.second["endpoint"].as<std::string>());
    return out;
  };
  int trusting = 0;
  for (const auto& p : cfg["service"]["pipelines"]) {
    for (const auto& proc : p.second["processors"]) {
      const YAML::Node rd = cfg["processors"][proc.as<std::string>()];
      if (proc.as<std::string>().rfind("resource_detection", 0) != 0) continue;
      EXPECT_FALSE(rd["process"] && rd["process"]["command_line"] && rd["process"]["command_line"].as<bool>());
      if (!rd["trust_pids"] || !rd["trust_pids"].as<bool>()) continue;
      ++trusting;
      for (const auto& r : p.second["receivers"])
        for (const auto& e : endpointsOf(r.as<std::string>()))
          EXPECT_EQ(e.rfind("127.0.0.1:", 0), 0u) << p.first.as<std::string>() << ": " << r.as<std::string>() << " on " << e;
    }
  }
  EXPECT_EQ(trusting, 1) << "the node profiler's pipeline";
}

TEST(KubernetesManifests, GatewayScalesAndIsProtectedAsOneWorkload) {
  Manifest gw = load("gateway.yaml");
  YAML::Node deployment = gw.ofKind("Deployment").at(0);
  const auto pod_labels = deployment["spec"]["template"]["metadata"]["labels"];
  auto selects_pods = [&](const YAML::Node& match) {
    for (const auto& kv : match)
      if (!pod_labels[kv.first.as<std::string>()] ||
          pod_labels[kv.first.as<std::string>()].as<std::string>() != kv.second.as<std::string>())
        return false;
    return match.size() > 0;
  };
  YAML::Node hpa = gw.ofKind("HorizontalPodAutoscaler").at(0);
  EXPECT_EQ(hpa["spec"]["scaleTargetRef"]["name"].as<std::string>(), deployment["metadata"]["name"].as<std::string>());
  EXPECT_GE(hpa["spec"]["minReplicas"].as<int>(), 2) << "one replica leaves nothing to fail over to";
  EXPECT_TRUE(selects_pods(gw.ofKind("PodDisruptionBudget").at(0)["spec"]["selector"]["matchLabels"]));
  for (const auto& s : gw.ofKind("Service")) EXPECT_TRUE(selects_pods(s["spec"]["selector"]));
  // The gateway runs as a non-root user with nothing to escalate to.
  const auto pod_security = deployment["spec"]["template"]["spec"]["securityContext"];
  EXPECT_TRUE(pod_security["runAsNonRoot"].as<bool>());
  const auto container_security = proflowContainer(deployment)["securityContext"];
  EXPECT_FALSE(container_security["allowPrivilegeEscalation"].as<bool>());
  EXPECT_TRUE(container_security["readOnlyRootFilesystem"].as<bool>());
}

// deploy/compose: every proflow service reads a config mounted from this folder that validates, the
// brokers they name are services of the file, and the gateways are replicas of one consumer.
TEST(ComposeFile, ProflowServicesShipConfigsThatValidateAndShareTheBroker) {
  const fs::path dir = fs::path(PROFLOW_SOURCE_DIR) / "deploy" / "compose";
  YAML::Node compose = YAML::LoadFile((dir / "compose.yaml").string());
  std::map<std::string, YAML::Node> configs;  // service -> its proflow config
  for (const auto& svc : compose["services"]) {
    const std::string name = svc.first.as<std::string>();
    if (svc.second["image"].as<std::string>().find("proflow") == std::string::npos) continue;
    SCOPED_TRACE("compose service " + name);
    const auto args = svc.second["command"].as<std::vector<std::string>>();
    auto it = std::find(args.begin(), args.end(), "--config");
    ASSERT_TRUE(it != args.end() && it + 1 != args.end());
    std::string local;
    for (const auto& v : svc.second["volumes"]) {
      const std::string spec = v.as<std::string>();
      const size_t colon = spec.find(':');
      if (spec.rfind("./", 0) == 0 && spec.substr(colon + 1, (it + 1)->size()) == *(it + 1)) local = spec.substr(2, colon - 2);
    }
    ASSERT_FALSE(local.empty()) << *(it + 1) << " is not mounted from deploy/compose";
    std::string text = testing::readFile((dir / local).string()), out;
    EXPECT_EQ(validate(text, &out), 0) << local << ":\n" << out;
    configs[name] = YAML::Load(text);
    // Telemetry users come from the compose secret, mounted where the config reads them.
    const YAML::Node metrics = configs[name]["service"]["telemetry"]["metrics"];
    if (metrics["auth"]) {
      const std::string id = metrics["auth"]["authenticator"].as<std::string>();
      const std::string file = configs[name]["extensions"][id]["htpasswd"]["file"].as<std::string>();
      bool mounted = false;
      for (const auto& secret : svc.second["secrets"]) {
        const std::string secret_name = secret.as<std::string>();
        mounted = mounted || (file.find("/run/secrets/" + secret_name) != std::string::npos &&
                              compose["secrets"][secret_name]["file"]);
      }
      EXPECT_TRUE(mounted) << file << " is not a secret of the service";
    }
  }
  auto host_of = [](const std::string& url) { return url.substr(url.find("//") + 2, url.rfind(':') - url.find("//") - 2); };
  ASSERT_TRUE(configs.count("agent"));
  const std::string agent_url = configs["agent"]["exporters"]["nats"]["url"].as<std::string>();
  EXPECT_TRUE(compose["services"][host_of(agent_url)]) << agent_url << " names no compose service";
  std::set<std::string> consumers;
  int gateways = 0;
  for (auto& [name, cfg] : configs) {
    if (!cfg["receivers"]["nats"]) continue;
    ++gateways;
    consumers.insert(cfg["receivers"]["nats"]["consumer"].as<std::string>());
    EXPECT_EQ(cfg["receivers"]["nats"]["url"].as<std::string>(), agent_url) << name;
    EXPECT_EQ(cfg["receivers"]["nats"]["subject"].as<std::string>(),
              configs["agent"]["exporters"]["nats"]["subject"].as<std::string>()) << name;
  }
  EXPECT_GE(gateways, 2) << "one gateway leaves nothing to fail over to";
  EXPECT_EQ(consumers.size(), 1u) << "replicas must share one durable consumer";
}

}  // namespace
}  // namespace proflow
