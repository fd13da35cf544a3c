#include "core/config/config_loader.h"

#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

namespace proflow::config {
namespace {

SourceLocation locationOf(const YAML::Mark& mark, const std::string& file) {
  if (mark.is_null()) return {file, 0, 0};
  return {file, mark.line + 1, mark.column + 1};
}

class Converter {
 public:
  Converter(const std::string& file, ConfigErrors& errors, const EnvLookup& env, std::vector<std::string>& warnings)
      : file_(file), errors_(errors), env_(env), warnings_(warnings) {}

  ConfigNode convert(const YAML::Node& n) {
    ConfigNode out;
    out.location = locationOf(n.Mark(), file_);
    switch (n.Type()) {
      case YAML::NodeType::Undefined:
      case YAML::NodeType::Null:
        out.kind = ConfigNode::Kind::kNull;
        break;
      case YAML::NodeType::Scalar:
        out.kind = ConfigNode::Kind::kScalar;
        out.quoted = n.Tag() == "!";
        out.scalar = expandEnv(n.Scalar(), env_, out.location, errors_, warnings_);
        break;
      case YAML::NodeType::Sequence:
        out.kind = ConfigNode::Kind::kSequence;
        for (const auto& item : n) out.items.push_back(convert(item));
        break;
      case YAML::NodeType::Map: {
        out.kind = ConfigNode::Kind::kMap;
        std::set<std::string> seen;
        for (const auto& kv : n) {
          auto key_loc = locationOf(kv.first.Mark(), file_);
          if (!kv.first.IsScalar()) {
            errors_.add("", key_loc, "map keys must be plain strings");
            continue;
          }
          const std::string key = kv.first.Scalar();
          if (!seen.insert(key).second) {
            errors_.add(key, key_loc, "duplicate key '" + key + "'");
            continue;
          }
          out.entries.emplace_back(key, convert(kv.second));
          out.key_locations.push_back(key_loc);
        }
        break;
      }
    }
    return out;
  }

 private:
  const std::string& file_;
  ConfigErrors& errors_;
  const EnvLookup& env_;
  std::vector<std::string>& warnings_;
};

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
  static const std::regex kName("[A-Za-z_][A-Za-z0-9_]*");
  std::string out;
  size_t i = 0;
  while (i < in.size()) {
    if (in.compare(i, 3, "$${") == 0) {  // escaped: a literal "${"
      out += "${";
      i += 3;
      continue;
    }
    if (in.compare(i, 2, "${") != 0) {
      out += in[i++];
      continue;
    }
    size_t close = in.find('}', i + 2);
    if (close == std::string::npos) {
      errors.add("", where, "unterminated '${' in \"" + in + "\"");
      return in;
    }
    std::string ref = in.substr(i + 2, close - i - 2);
    i = close + 1;
    if (ref.rfind("env:", 0) != 0) {
      errors.add("", where, "unsupported reference '${" + ref + "}': use ${env:NAME} or ${env:NAME:-default}");
      continue;
    }
    ref.erase(0, 4);
    std::optional<std::string> fallback;
    if (auto pos = ref.find(":-"); pos != std::string::npos) {
      fallback = ref.substr(pos + 2);
      ref.resize(pos);
    }
    if (!std::regex_match(ref, kName)) {
      errors.add("", where, "invalid environment variable name '" + ref + "'");
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
                     const EnvLookup& env) {
  LoadResult result;
  YAML::Node doc;
  try {
    doc = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    errors.add("", locationOf(e.mark, source_name), "invalid YAML: " + e.msg);
    return result;
  }
  Converter conv(source_name, errors, env, result.warnings);
  result.root = conv.convert(doc);
  if (result.root.isNull()) {
    result.root.kind = ConfigNode::Kind::kMap;  // an empty file is an empty config
  } else if (!result.root.isMap()) {
    errors.add("", result.root.location, "the top level of a config file must be a map");
  }
  return result;
}

LoadResult loadFiles(const std::vector<std::string>& paths, ConfigErrors& errors, const EnvLookup& env) {
  LoadResult merged;
  merged.root.kind = ConfigNode::Kind::kMap;
  for (const auto& path : paths) {
    std::ifstream f(path);
    if (!f) {
      errors.add("", {path, 0, 0}, "cannot open config file");
      continue;
    }
    std::stringstream ss;
    ss << f.rdbuf();
    auto one = parseYaml(ss.str(), path, errors, env);
    merged.warnings.insert(merged.warnings.end(), one.warnings.begin(), one.warnings.end());
    if (one.root.isMap()) mergeInto(merged.root, one.root);
  }
  return merged;
}

}  // namespace proflow::config
