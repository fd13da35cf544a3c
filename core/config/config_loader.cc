#include "core/config/config_loader.h"

#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/config/yaml_tree_builder.h"
#include "core/util/regular_file.h"

namespace proflow::config {
namespace {

bool validEnvName(std::string_view name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

std::string sizeText(size_t bytes) { return std::to_string(bytes) + " bytes"; }

// Reads at most `max + 1` bytes, so a huge file (or /dev/zero) is refused without being read whole.
std::optional<std::string> readBounded(const std::string& path, size_t max, ConfigErrors& errors) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    errors.add("", {path, 0, 0}, "cannot open config file");
    return std::nullopt;
  }
  std::string text(max + 1, '\0');
  f.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(f.gcount()));
  if (text.size() > max) {
    errors.add("", {path, 0, 0}, "config file is larger than " + sizeText(max) + "; refusing to read it");
    return std::nullopt;
  }
  return text;
}

}  // namespace

EnvLookup processEnv() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (!v) return std::nullopt;
    return std::string(v);
  };
}

namespace {

// ${file:PATH}: the file's content, as the Collector's file provider gives a scalar (without the
// line ends that close it). Only a regular file is read, and no more than a config file may hold.
std::optional<std::string> fileReference(const std::string& path, const SourceLocation& where, ConfigErrors& errors) {
  std::string content;
  const Status read = readRegularFile(path, {.max_bytes = YamlLimits{}.max_file_bytes}, &content);
  if (!read.isOk()) {
    errors.add("", where, "${file:" + path + "}: " + read.message());
    return std::nullopt;
  }
  while (!content.empty() && (content.back() == '\n' || content.back() == '\r')) content.pop_back();
  return content;
}

}  // namespace

std::string expandEnv(const std::string& in, const EnvLookup& env, const SourceLocation& where,
                      ConfigErrors& errors, std::vector<std::string>& warnings) {
  std::string out;
  size_t i = 0;
  while (i < in.size()) {
    if (in.compare(i, 2, "$$") == 0) {  // escaped: a literal "$" (so "$${" is a literal "${"), as in the Collector
      out += '$';
      i += 2;
      continue;
    }
    if (in.compare(i, 2, "${") != 0) {
      out += in[i++];
      continue;
    }
    size_t close = in.find('}', i + 2);
    if (close == std::string::npos) {
      errors.add("", where, "unterminated '${' in " + quoteValue(in));
      return in;
    }
    std::string ref = in.substr(i + 2, close - i - 2);
    i = close + 1;
    // The scheme is what precedes the first ':' unless that ':' opens a ":-" default: ${NAME:-x} is
    // a bare environment reference, as the Collector's default scheme is env.
    const size_t colon = ref.find(':');
    const bool has_scheme = colon != std::string::npos && ref.compare(colon, 2, ":-") != 0;
    const std::string scheme = has_scheme ? ref.substr(0, colon) : "env";
    if (has_scheme) ref.erase(0, colon + 1);
    if (scheme == "file") {
      if (auto content = fileReference(ref, where, errors)) out += *content;
      continue;
    }
    if (scheme != "env") {
      errors.add("", where,
                 "unsupported reference " + quoteValue("${" + scheme + ":" + ref + "}") +
                     ": proflow resolves ${NAME}, ${env:NAME}, ${env:NAME:-default} and ${file:PATH}");
      continue;
    }
    std::optional<std::string> fallback;
    if (auto pos = ref.find(":-"); pos != std::string::npos) {
      fallback = ref.substr(pos + 2);
      ref.resize(pos);
    }
    if (!validEnvName(ref)) {
      errors.add("", where, "invalid environment variable name " + quoteValue(ref));
      continue;
    }
    auto value = env(ref);
    if (value && !value->empty()) {
      out += *value;
    } else if (fallback) {
      out += *fallback;
    } else if (!value) {
      warnings.push_back(where.str() + ": environment variable " + ref + " is not set; using \"\"");
    }
  }
  return out;
}

LoadResult parseYaml(const std::string& text, const std::string& source_name, ConfigErrors& errors,
                     const EnvLookup& env, const YamlLimits& limits) {
  LoadResult result;
  if (text.size() > limits.max_file_bytes) {
    errors.add("", {source_name, 0, 0},
               "config is larger than " + sizeText(limits.max_file_bytes) + "; refusing to read it");
    return result;
  }
  std::istringstream in(text);
  YamlTreeBuilder builder(source_name, limits, env, errors, result.warnings);
  try {
    YAML::Parser parser(in);
    parser.HandleNextDocument(builder);
  } catch (const YAML::Exception& e) {
    SourceLocation where{source_name, 0, 0};
    if (!e.mark.is_null()) where = {source_name, e.mark.line + 1, e.mark.column + 1};
    errors.add("", where, "invalid YAML: " + e.msg);
    return result;
  } catch (const YamlTreeBuilder::LimitExceeded&) {
    return result;  // reported by the builder
  }
  result.root = builder.takeRoot();
  if (result.root.isNull()) {
    result.root.kind = ConfigNode::Kind::kMap;  // an empty file is an empty config
  } else if (!result.root.isMap()) {
    errors.add("", result.root.location, "the top level of a config file must be a map");
  }
  return result;
}

namespace {

// A scheme is letters, digits, '+', '-' and '.', starting with a letter, before the first ':' (as
// in a URI); anything else is a plain path.
std::optional<std::string> uriScheme(const std::string& uri) {
  const size_t colon = uri.find(':');
  if (colon == std::string::npos || colon < 2 || !std::isalpha(static_cast<unsigned char>(uri[0])))
    return std::nullopt;
  for (size_t i = 0; i < colon; ++i) {
    const char c = uri[i];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.') return std::nullopt;
  }
  return uri.substr(0, colon);
}

// Keys written "a::b" (the Collector's key delimiter, as --set and yaml: sources write them) become
// nested maps, at every level.
void nestDelimitedKeys(ConfigNode& node) {
  for (auto& item : node.items) nestDelimitedKeys(item);
  if (!node.isMap()) return;
  ConfigNode nested;
  nested.kind = ConfigNode::Kind::kMap;
  nested.location = node.location;
  for (size_t e = 0; e < node.entries.size(); ++e) {
    auto& [key, value] = node.entries[e];
    nestDelimitedKeys(value);
    ConfigNode wrapped = std::move(value);
    std::string outer = key;
    for (size_t cut; (cut = outer.rfind("::")) != std::string::npos;) {
      ConfigNode level;
      level.kind = ConfigNode::Kind::kMap;
      level.location = node.key_locations[e];
      level.entries.emplace_back(outer.substr(cut + 2), std::move(wrapped));
      level.key_locations.push_back(node.key_locations[e]);
      wrapped = std::move(level);
      outer.resize(cut);
    }
    ConfigNode one;
    one.kind = ConfigNode::Kind::kMap;
    one.entries.emplace_back(outer, std::move(wrapped));
    one.key_locations.push_back(node.key_locations[e]);
    mergeInto(nested, one);
  }
  node = std::move(nested);
}

}  // namespace

std::vector<std::string> configFilePaths(const std::vector<std::string>& uris) {
  std::vector<std::string> paths;
  for (const auto& uri : uris) {
    const auto scheme = uriScheme(uri);
    if (!scheme) paths.push_back(uri);
    else if (*scheme == "file") paths.push_back(uri.substr(5));
  }
  return paths;
}

std::string setFlagToUri(const std::string& assignment, std::string* error) {
  const size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    *error = "--set wants KEY=VALUE with keys joined by '::' (e.g. processors::batch::timeout=2s), got '" +
             assignment + "'";
    return "";
  }
  const std::string key = assignment.substr(0, eq), value = assignment.substr(eq + 1);
  if (key.find(":::") != std::string::npos || key.front() == ':' || key.back() == ':' ||
      key.find('\n') != std::string::npos) {
    *error = "--set key '" + key + "' is malformed: name each level, joined by '::'";
    return "";
  }
  if (value.find('\n') != std::string::npos) {
    *error = "--set value of '" + key + "' spans several lines; give one line";
    return "";
  }
  return "yaml:" + key + ": " + value;
}

LoadResult loadFiles(const std::vector<std::string>& uris, ConfigErrors& errors, const EnvLookup& env,
                     const YamlLimits& limits) {
  LoadResult merged;
  merged.root.kind = ConfigNode::Kind::kMap;
  for (const auto& uri : uris) {
    const auto scheme = uriScheme(uri);
    std::optional<std::string> text;
    std::string name = uri;
    if (!scheme || *scheme == "file") {
      name = scheme ? uri.substr(5) : uri;
      text = readBounded(name, limits.max_file_bytes, errors);
    } else if (*scheme == "env") {
      const std::string var = uri.substr(4);
      text = validEnvName(var) ? env(var) : std::nullopt;
      if (!text) errors.add("", {uri, 0, 0}, "config source " + uri + ": environment variable " + var + " is not set");
    } else if (*scheme == "yaml") {
      text = uri.substr(5);
    } else {
      errors.add("", {uri, 0, 0},
                 "unsupported config source scheme '" + *scheme +
                     ":'; give a file path, file:PATH, env:NAME or yaml:TEXT (a path with ':' in it as file:PATH)");
    }
    if (!text) continue;
    auto one = parseYaml(*text, name, errors, env, limits);
    merged.warnings.insert(merged.warnings.end(), one.warnings.begin(), one.warnings.end());
    if (!one.root.isMap()) continue;
    if (scheme && *scheme == "yaml") nestDelimitedKeys(one.root);
    mergeInto(merged.root, one.root);
  }
  return merged;
}

}  // namespace proflow::config
