// Starts an in-process Service from YAML with every built-in component plus the given factories
// (processors the lead has not registered in cmd/proflow/builtins.cc yet, test-only exporters).
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cmd/proflow/builtins.h"
#include "core/config/service_config.h"
#include "core/service.h"

namespace proflow::testing {

inline std::unique_ptr<Service> startServiceWith(const std::string& yaml,
                                                 std::vector<std::unique_ptr<Factory>> extra) {
  Registry registry;
  EXPECT_TRUE(registerBuiltins(registry).isOk());
  for (auto& f : extra) {
    // Once the lead registers the factory as a built-in, the built-in one is used.
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

}  // namespace proflow::testing
