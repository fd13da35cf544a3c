// Runs a whole in-process Service from YAML with every built-in component registered.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "cmd/proflow/builtins.h"
#include "core/config/service_config.h"
#include "core/service.h"

namespace proflow::testing {

inline std::unique_ptr<Service> startService(const std::string& yaml) {
  Registry registry;
  EXPECT_TRUE(registerBuiltins(registry).isOk());
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
