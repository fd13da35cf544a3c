// Runs a whole in-process Service from YAML with every built-in component registered (and loads
// configs for their error listings).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cmd/proflow/builtins.h"
#include "core/config/service_config.h"
#include "core/service/service.h"

namespace proflow::testing {

// `extra`: test-only factories (fakes); a built-in of the same kind and type takes precedence.
inline std::unique_ptr<Service> startService(const std::string& yaml,
                                             std::vector<std::unique_ptr<Factory>> extra = {}) {
  Registry registry;
  EXPECT_TRUE(registerBuiltins(registry).isOk());
  for (auto& f : extra) {
    if (registry.find(f->kind(), f->type()) == nullptr) {
      EXPECT_TRUE(registry.add(std::move(f)).isOk());
    }
  }
  config::ServiceConfig cfg;
  std::string errors;
  Status s = config::loadServiceConfigText(yaml, "test.yaml", registry, &cfg, &errors);
  EXPECT_TRUE(s.isOk()) << errors;
  if (!s.isOk()) return nullptr;
  auto service = std::make_unique<Service>(std::move(cfg));
  s = service->start();
  EXPECT_TRUE(s.isOk()) << s.toString();
  if (!s.isOk()) return nullptr;
  return service;
}

// Loads `yaml` with every built-in registered and returns the error listing ("" when it loads).
inline std::string configErrors(const std::string& yaml, const std::string& file = "test.yaml") {
  Registry registry;
  EXPECT_TRUE(registerBuiltins(registry).isOk());
  config::ServiceConfig cfg;
  std::string errors;
  Status s = config::loadServiceConfigText(yaml, file, registry, &cfg, &errors);
  return s.isOk() ? std::string() : errors;
}

}  // namespace proflow::testing
