#include "cmd/proflow/commands.h"

#include <signal.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "cmd/proflow/builtins.h"
#include "cmd/proflow/component_help.h"
#include "cmd/proflow/config_watch.h"
#include "cmd/proflow/embedded_config.h"
#include "core/config/config_loader.h"
#include "core/net/open_files_limit.h"
#include "core/service/service.h"
#include "core/telemetry/logging.h"

namespace proflow {
namespace {

// Ends the process without running destructors: a worker still uses the service's state.
[[noreturn]] void exitNow(int code) {
  spdlog::info("stopped (without waiting for the request still being processed)");
  spdlog::shutdown();  // flushes the log
  std::_Exit(code);
}

bool buildRegistry(Registry& registry) {
  if (Status s = registerBuiltins(registry); !s.isOk()) {
    std::fprintf(stderr, "proflow: %s\n", s.message().c_str());
    return false;
  }
  return true;
}

// Reads the --config sources, or the embedded default when none is given, then the --set ones.
Status readConfig(const CliArgs& args, const Registry& registry, config::ServiceConfig* cfg, std::string* errors,
                  std::vector<std::string>* warnings) {
  if (args.configs.empty())
    return config::loadServiceConfigText(kEmbeddedDefaultConfig, "<embedded config/proflow.yaml>", registry, cfg,
                                         errors, warnings, args.sets);
  std::vector<std::string> sources = args.configs;
  sources.insert(sources.end(), args.sets.begin(), args.sets.end());
  return config::loadServiceConfig(sources, registry, cfg, errors, warnings);
}

bool loadConfig(const CliArgs& args, const Registry& registry, config::ServiceConfig* cfg) {
  std::string errors;
  std::vector<std::string> warnings;
  Status s = readConfig(args, registry, cfg, &errors, &warnings);
  for (const auto& w : warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  if (!s.isOk()) {
    std::fprintf(stderr, "proflow: invalid configuration (%s):\n%s", s.message().c_str(), errors.c_str());
    return false;
  }
  return true;
}

constexpr ComponentKind kAllKinds[] = {ComponentKind::kReceiver, ComponentKind::kProcessor, ComponentKind::kExporter,
                                       ComponentKind::kExtension, ComponentKind::kConnector};

// Prints every kind that has a component named `type` (by its type or a deprecated alias): its
// description and options, or with `markdown` its README status table.
int describeType(const Registry& registry, const std::string& type, bool markdown) {
  bool found = false;
  for (auto kind : kAllKinds) {
    const Factory* f = registry.find(kind, type);
    if (f == nullptr) continue;
    const ComponentMetadata* metadata = registry.metadata(kind, f->type());
    const std::string text = markdown ? componentStatusTable(*metadata) : describeComponent(*f, *metadata);
    std::printf("%s%s", found ? "\n" : "", text.c_str());
    found = true;
  }
  if (found) return 0;
  std::fprintf(stderr, "proflow: no component type '%s'; `proflow components` lists them\n", type.c_str());
  return 1;
}

}  // namespace

int commandVersion() {
  std::printf("proflow %s\n", PROFLOW_VERSION);
  return 0;
}

int commandComponents(const CliArgs& args) {
  Registry registry;
  if (!buildRegistry(registry)) return 1;
  const bool markdown =
      std::find(args.flags.begin(), args.flags.end(), "--markdown") != args.flags.end();
  if (!args.positional.empty()) return describeType(registry, args.positional.front(), markdown);
  for (auto kind : kAllKinds) {
    std::printf("%ss:\n", componentKindName(kind));
    auto factories = registry.all(kind);
    if (factories.empty()) std::printf("  (none)\n");
    for (const auto* f : factories) {
      const ComponentMetadata* m = registry.metadata(kind, f->type());
      std::string aliases;
      for (const auto& a : m->deprecated_aliases) aliases += (aliases.empty() ? " (deprecated alias: " : ", ") + a;
      if (!aliases.empty()) aliases += ")";
      std::printf("  %-20s %-24s %s%s\n", m->type.c_str(), stabilitySummary(*m).c_str(), m->description.c_str(),
                  aliases.c_str());
    }
  }
  std::printf("\n`proflow components TYPE` prints a type's stability, trust posture and options.\n");
  return 0;
}

int commandValidate(const CliArgs& args) {
  Registry registry;
  if (!buildRegistry(registry)) return 1;
  config::ServiceConfig cfg;
  if (!loadConfig(args, registry, &cfg)) return 1;
  std::printf("configuration is valid: %zu pipeline(s)\n", cfg.pipelines.size());
  return 0;
}

int commandRun(const CliArgs& args) {
  Registry registry;
  if (!buildRegistry(registry)) return 1;
  config::ServiceConfig cfg;
  const std::vector<std::string> config_files = config::configFilePaths(args.configs);
  const uint64_t loaded_files = ConfigWatcher::fingerprint(config_files);
  if (!loadConfig(args, registry, &cfg)) return 1;
  if (Status s = telemetry::setupLogging(cfg.telemetry.logs.level, cfg.telemetry.logs.encoding,
                                         cfg.telemetry.logs.output_paths);
      !s.isOk()) {
    std::fprintf(stderr, "proflow: %s\n", s.message().c_str());
    return 1;
  }

  // Block the stop and reload signals in every thread; the main thread waits for them below.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  // Every connection is a descriptor: a receiver holds thousands of idle or slow clients only if
  // the process may open them.
  net::OpenFilesLimit files = net::raiseOpenFilesLimit();
  if (!files.ok)
    spdlog::warn("could not raise the open-files limit (now {}): connections are capped by it", files.after);
  else if (files.after != files.before)
    spdlog::info("open-files limit raised from {} to {} (the hard limit)", files.before, files.after);
  else
    spdlog::info("open-files limit: {}", files.after);

  Service service(std::move(cfg));
  // Every reload reads all the --config files again.
  service.setConfigSource([&args, &registry](config::ServiceConfig* out, std::string* errors) {
    std::vector<std::string> warnings;
    Status s = readConfig(args, registry, out, errors, &warnings);
    for (const auto& w : warnings) spdlog::warn("config: {}", w);
    return s;
  });
  if (Status s = service.start(); !s.isOk()) {
    spdlog::error("start-up failed: {}", s.message());
    if (!service.shutdown()) exitNow(1);
    return 1;
  }
  std::unique_ptr<ConfigWatcher> watcher;
  if (!args.watch_config.empty() && !config_files.empty()) {
    const auto interval = config::parseDuration(args.watch_config)->ms();
    spdlog::info("watching {} config file(s) for changes every {}", config_files.size(), args.watch_config);
    watcher = std::make_unique<ConfigWatcher>(config_files, interval, loaded_files,
                                              [&service] { service.requestReload("config files changed"); });
  } else if (!args.watch_config.empty()) {
    spdlog::warn("--watch-config without a config file: the embedded config and env:/yaml: sources never change");
  }
  int sig = 0;
  for (;;) {
    sigwait(&signals, &sig);
    if (sig != SIGHUP) break;
    spdlog::info("received SIGHUP, reloading the config");
    service.requestReload("SIGHUP");
  }
  spdlog::info("received {}, stopping", sig == SIGTERM ? "SIGTERM" : "SIGINT");
  watcher.reset();
  if (!service.shutdown()) exitNow(0);  // a request still runs: do not wait for it, nor free under it
  spdlog::info("stopped");
  return 0;
}

}  // namespace proflow
