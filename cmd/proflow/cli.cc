#include "cmd/proflow/cli.h"

#include <cstdio>
#include <map>
#include <set>

#include "cmd/proflow/commands.h"
#include "core/config/config_loader.h"
#include "core/config/config_types.h"
#include "core/runtime/allocator_tuning.h"

namespace proflow {

std::string usage() {
  return R"(proflow - profiling pipeline daemon

Usage:
  proflow [--config SOURCE]... [--set KEY=VALUE]... [--watch-config[=INTERVAL]]
                                         run the pipelines (no --config: the embedded default config);
                                         SIGHUP or POST /-/reload on the telemetry endpoint reloads the
                                         config files, --watch-config also when their contents change
                                         (polled every INTERVAL, default 5s)
  proflow validate [--config SOURCE]... [--set KEY=VALUE]...
                                         check the config, print every error, open no sockets
  proflow components                     list every registered component type by kind
  proflow components [--help] TYPE       print a component type: stability, aliases, trust posture, options
  proflow components --markdown TYPE     the status table of its README, from its metadata.yaml
  proflow convert IN OUT [--to FORMAT] [--from FORMAT] [--sample-type T]
                 [--symbolize [--debug-dir D]... [--binary-dir D]... [--debuginfod URL]...]
                 [--keep-generated-names]
                                         convert a profile file offline; input formats (detected):
                                         pprof (gzip/zstd/raw), jfr, otlp_json, otlp_proto, folded,
                                         perf (perf.data), perf-script (perf script text);
                                         output: pprof (default), otlp_json, otlp_proto, folded;
                                         JFR: --keep-generated-names keeps lambda/proxy/accessor
                                         class names as recorded (merged by default)
  proflow health [--address [https://]HOST:PORT | --config FILE...]
                 [--tls] [--ca-file F] [--server-name N] [--cert-file F --key-file F]
                 [--insecure-skip-verify]
                                         exit 0 when the running daemon's /healthz answers 200
                                         (address: --address, else the config's telemetry address,
                                         else 127.0.0.1:8888; HTTPS when the config's endpoint
                                         has tls, trusting its cert_file unless --ca-file; a
                                         loopback address is verified as localhost unless
                                         --server-name)
  proflow --version

--config may be repeated; sources merge in order (later ones override earlier ones). A source is a
file path, file:PATH, env:NAME (a variable holding YAML) or yaml:TEXT with keys joined by '::'
(yaml:processors::batch::timeout: 2s). --set KEY=VALUE (processors::batch::timeout=2s) is applied
after every --config, on the embedded default config when there is none. Values may refer to
${NAME}, ${env:NAME}, ${env:NAME:-default} and ${file:PATH}; "$$" is a literal "$".
)";
}

namespace {

// The options each command takes; any other is refused rather than ignored. `help` and `version`
// print and exit, whatever else was given.
const std::map<std::string, std::set<std::string>>& commandOptions() {
  static const std::map<std::string, std::set<std::string>> kTakes = {
      {"run", {"--config", "--set", "--watch-config"}},
      {"validate", {"--config", "--set"}},
      {"components", {"--help", "--markdown"}},
      {"convert",
       {"--to", "--from", "--sample-type", "--symbolize", "--debug-dir", "--binary-dir", "--debuginfod",
        "--keep-generated-names"}},
      {"health",
       {"--address", "--config", "--tls", "--ca-file", "--server-name", "--cert-file", "--key-file",
        "--insecure-skip-verify"}},
  };
  return kTakes;
}

// "" when `command` takes every option in `given`; else the usage error naming the first that it
// does not take.
std::string checkOptionsOf(const std::string& command, const std::vector<std::string>& given) {
  const auto it = commandOptions().find(command);
  if (it == commandOptions().end()) return "";
  for (const auto& name : given) {
    if (it->second.count(name)) continue;
    std::string takes;
    for (const auto& o : it->second) takes += (takes.empty() ? "" : ", ") + o;
    const std::string shown = command == "run" ? "proflow (run)" : "proflow " + command;
    return "option " + name + " does not apply to '" + shown + "'" +
           (takes.empty() ? std::string(" (it takes no options)") : " (it takes " + takes + ")");
  }
  return "";
}

}  // namespace

CliArgs parseCli(int argc, char** argv) {
  static const std::set<std::string> kCommands = {"run",     "validate", "components", "version",
                                                  "convert", "help",     "health"};
  static const std::set<std::string> kValueOptions = {"--to",         "--from",       "--debug-dir",
                                                     "--debuginfod", "--binary-dir", "--sample-type",
                                                     "--address",    "--ca-file",    "--server-name",
                                                     "--cert-file",  "--key-file"};
  static const std::set<std::string> kFlags = {"--symbolize", "--keep-generated-names", "--tls",
                                               "--insecure-skip-verify", "--markdown"};
  CliArgs args;
  std::vector<std::string> given;  // option names as the command will check them
  int i = 1;
  if (i < argc && kCommands.count(argv[i])) args.command = argv[i++];
  for (; i < argc; ++i) {
    std::string a = argv[i];
    auto eq = a.find('=');
    std::string name = a.substr(0, eq);
    auto value = [&](std::string& out) {
      if (eq != std::string::npos) {
        out = a.substr(eq + 1);
        return true;
      }
      if (i + 1 >= argc) {
        args.error = name + " needs a value";
        return false;
      }
      out = argv[++i];
      return true;
    };
    if (name == "--config" || name == "-c") {
      std::string v;
      if (!value(v)) return args;
      args.configs.push_back(v);
      given.push_back("--config");
    } else if (name == "--set") {
      std::string v;
      if (!value(v)) return args;
      std::string uri = config::setFlagToUri(v, &args.error);
      if (uri.empty()) return args;
      args.sets.push_back(std::move(uri));
      given.push_back(name);
    } else if (name == "--watch-config") {
      given.push_back(name);
      args.watch_config = eq == std::string::npos ? "5s" : a.substr(eq + 1);
      auto d = config::parseDuration(args.watch_config);
      if (!d || d->ms().count() <= 0) {
        args.error = "--watch-config wants an interval like 2s or 500ms, got '" + args.watch_config + "'";
        return args;
      }
    } else if (name == "--version" || name == "-v") {
      args.command = "version";
    } else if (name == "--help" || name == "-h") {
      if (args.command == "components") args.flags.push_back("--help");  // components --help TYPE
      else args.command = "help";
    } else if (kValueOptions.count(name)) {
      std::string v;
      if (!value(v)) return args;
      args.options.emplace_back(name, v);
      given.push_back(name);
    } else if (kFlags.count(name)) {
      args.flags.push_back(name);
      given.push_back(name);
    } else if (!a.empty() && a[0] == '-') {
      args.error = "unknown option " + a;
      return args;
    } else {
      args.positional.push_back(a);
    }
  }
  if (std::string e = checkOptionsOf(args.command, given); !e.empty()) {
    args.error = e;
    return args;
  }
  const size_t max_positional = args.command == "components" ? 1 : 0;
  if (args.command != "convert" && args.positional.size() > max_positional)
    args.error = "unexpected argument '" + args.positional[max_positional] + "'";
  return args;
}

int cliMain(int argc, char** argv) {
  CliArgs args = parseCli(argc, argv);
  if (args.command == "convert" && args.error.empty() && !args.positional.empty())
    execConvertWithHugePageHeap(argv, args.positional[0]);
  if (args.command == "convert") tuneAllocatorForOneShot();
  else tuneAllocatorForThroughput();
  if (!args.error.empty()) {
    std::fprintf(stderr, "proflow: %s\n\n%s", args.error.c_str(), usage().c_str());
    return 2;
  }
  if (args.command == "help") {
    std::fputs(usage().c_str(), stdout);
    return 0;
  }
  if (args.command == "version") return commandVersion();
  if (args.command == "components") return commandComponents(args);
  if (args.command == "validate") return commandValidate(args);
  if (args.command == "convert") return commandConvert(args);
  if (args.command == "health") return commandHealth(args);
  return commandRun(args);
}

}  // namespace proflow
