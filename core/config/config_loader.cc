#include "core/config/config_loader.h"

#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "core/config/yaml_tree_builder.h"

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
    if (ref.rfind("env:", 0) != 0) {
      errors.add("", where, "unsupported reference " + quoteValue("${" + ref + "}") + ": use ${env:NAME} or ${env:NAME:-default}");
      continue;
    }
    ref.erase(0, 4);
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

LoadResult loadFiles(const std::vector<std::string>& paths, ConfigErrors& errors, const EnvLookup& env,
                     const YamlLimits& limits) {
  LoadResult merged;
  merged.root.kind = ConfigNode::Kind::kMap;
  for (const auto& path : paths) {
    auto text = readBounded(path, limits.max_file_bytes, errors);
    if (!text) continue;
    auto one = parseYaml(*text, path, errors, env, limits);
    merged.warnings.insert(merged.warnings.end(), one.warnings.begin(), one.warnings.end());
    if (one.root.isMap()) mergeInto(merged.root, one.root);
  }
  return merged;
}

}  // namespace proflow::config
