// Reads YAML config sources into one merged ConfigNode tree, resolving references in scalar values
// as the Collector does: ${NAME} and ${env:NAME} (the environment), ${env:NAME:-default} (also
// ${NAME:-default}), ${file:PATH} (a file's content). "$$" stands for a literal "$", so "$${" for a
// literal "${": OTTL replacements written "$$1" reach the statement as "$1".
//
// A source (--config) is a file path, file:PATH, env:NAME (a variable holding YAML) or yaml:TEXT,
// whose keys may be joined by "::" for nesting (`yaml:processors::batch::timeout: 2s`); --set
// KEY=VALUE is the yaml: source "KEY: VALUE". Sources merge in order, later ones overriding.
#pragma once

#include <cstddef>
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

// Bounds on what one config file may cost to read. A file past one of them is refused with an error
// at its file:line instead of exhausting memory (a "billion laughs" alias bomb, a huge or endlessly
// nested file); real configs stay far below every one.
struct YamlLimits {
  size_t max_file_bytes = size_t{8} << 20;  // 8 MiB
  size_t max_nodes = 200'000;               // nodes of one document, every use of an alias counted
  size_t max_alias_nodes = 50'000;          // of those, nodes reached through aliases
  size_t max_depth = 64;                    // nested maps and lists
};

// Parses one YAML document; `source_name` is used in locations.
LoadResult parseYaml(const std::string& text, const std::string& source_name, ConfigErrors& errors,
                     const EnvLookup& env = processEnv(), const YamlLimits& limits = {});

// Reads and merges the sources (paths or file:, env:, yaml: URIs) in order, later ones overriding
// earlier ones.
LoadResult loadFiles(const std::vector<std::string>& uris, ConfigErrors& errors,
                     const EnvLookup& env = processEnv(), const YamlLimits& limits = {});

// The files among `uris` (plain paths and file: URIs), for watching them.
std::vector<std::string> configFilePaths(const std::vector<std::string>& uris);

// --set KEY=VALUE as the yaml: source it stands for ("" with `error` set when it is malformed).
std::string setFlagToUri(const std::string& assignment, std::string* error);

// Expands references in one scalar; reports syntax errors to `errors` at `where`.
std::string expandEnv(const std::string& in, const EnvLookup& env, const SourceLocation& where,
                      ConfigErrors& errors, std::vector<std::string>& warnings);

}  // namespace proflow::config
