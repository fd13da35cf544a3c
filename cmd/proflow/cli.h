// Command-line parsing for the proflow binary.
#pragma once

#include <string>
#include <vector>

namespace proflow {

struct CliArgs {
  std::string command = "run";  // run | validate | components | version | convert | help
  std::vector<std::string> configs;             // --config: paths or file:, env:, yaml: sources
  std::vector<std::string> sets;                // --set KEY=VALUE, as the yaml: sources they stand for
  std::vector<std::string> positional;          // convert: IN OUT
  std::vector<std::pair<std::string, std::string>> options;  // --to, --debug-dir, ... in order
  std::vector<std::string> flags;               // --symbolize, ...
  std::string watch_config;                     // --watch-config[=interval]: the interval; empty: off
  std::string error;                            // non-empty: usage error
};

CliArgs parseCli(int argc, char** argv);
std::string usage();

// Entry point of the binary.
int cliMain(int argc, char** argv);

}  // namespace proflow
