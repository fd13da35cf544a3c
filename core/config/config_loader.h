// Reads YAML config files into one merged ConfigNode tree, expanding ${env:VAR} and
// ${env:VAR:-default} in scalar values ("$${" stands for a literal "${").
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/config/config_errors.h"
#include "core/config/config_node.h"

namespace proflow::config {

using EnvLookup = std::function<std::optional<std::string>(const std::string&)>;

// The process environment.
EnvLookup processEnv();

struct LoadResult {
  ConfigNode root;
  std::vector<std::string> warnings;  // e.g. an unset variable without default
};

// Parses one YAML document; `source_name` is used in locations.
LoadResult parseYaml(const std::string& text, const std::string& source_name, ConfigErrors& errors,
                     const EnvLookup& env = processEnv());

// Reads and merges the files in order (later files override earlier ones).
LoadResult loadFiles(const std::vector<std::string>& paths, ConfigErrors& errors,
                     const EnvLookup& env = processEnv());

// Expands references in one scalar; reports syntax errors to `errors` at `where`.
std::string expandEnv(const std::string& in, const EnvLookup& env, const SourceLocation& where,
                      ConfigErrors& errors, std::vector<std::string>& warnings);

}  // namespace proflow::config
