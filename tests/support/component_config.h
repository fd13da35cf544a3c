// Decodes one component's YAML over its factory's defaults and validates it, as the config loader
// does for each component — for config tests that look at one component alone.
#pragma once

#include <string>
#include <type_traits>

#include "core/config/component_config.h"
#include "core/config/config_loader.h"
#include "core/component/factory.h"

namespace proflow::testing {

// `path` names the component in messages (e.g. "processors.batch"), `source` the file. `out`, when
// given, receives the decoded config.
template <class ConfigT = void>
config::ConfigErrors checkComponentConfig(const Factory& factory, const std::string& yaml, const std::string& path,
                                          ConfigT* out = nullptr, const std::string& source = "t.yaml") {
  config::ConfigErrors errors;
  auto loaded = config::parseYaml(yaml, source, errors);
  auto cfg = factory.createDefaultConfig();
  cfg->decode(loaded.root, path, errors);
  cfg->validate(errors);
  if constexpr (!std::is_void_v<ConfigT>) {
    if (out) *out = cfg->template as<ConfigT>();
  }
  return errors;
}

}  // namespace proflow::testing
