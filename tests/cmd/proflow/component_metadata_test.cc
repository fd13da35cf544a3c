// The component kit's metadata: every built-in component's metadata.yaml parses into the registry,
// its deprecated aliases load with the Collector's deprecation line, and the status table at the
// top of its README is the one its metadata gives (set PROFLOW_UPDATE_STATUS_TABLES=1 to write them).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cmd/proflow/builtins.h"
#include "cmd/proflow/component_help.h"
#include "core/config/service_config.h"

namespace proflow {
namespace {

constexpr const char* kBegin = "<!-- status: generated from metadata.yaml (proflow components --markdown) -->\n";
constexpr const char* kEnd = "<!-- end of status -->\n";

std::string folderOf(ComponentKind kind, const std::string& type) {
  return std::string(componentKindName(kind)) + "s/" + type;
}

std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ComponentMetadata, ReadmeStatusTablesAreTheMetadatas) {
  Registry registry;
  ASSERT_TRUE(registerBuiltins(registry).isOk());
  const bool update = std::getenv("PROFLOW_UPDATE_STATUS_TABLES") != nullptr;
  for (auto kind : {ComponentKind::kReceiver, ComponentKind::kProcessor, ComponentKind::kExporter,
                    ComponentKind::kExtension, ComponentKind::kConnector}) {
    for (const auto& type : registry.types(kind)) {
      const auto readme = std::filesystem::path(PROFLOW_SOURCE_DIR) / folderOf(kind, type) / "README.md";
      SCOPED_TRACE(readme.string());
      std::string text = readFile(readme);
      ASSERT_FALSE(text.empty()) << "every component folder has a README";
      const std::string block = kBegin + componentStatusTable(*registry.metadata(kind, type)) + kEnd;
      const size_t begin = text.find(kBegin), end = text.find(kEnd);
      if (update) {
        if (begin != std::string::npos && end != std::string::npos) {
          text.replace(begin, end + std::strlen(kEnd) - begin, block);
        } else {
          const size_t after_title = text.find("\n\n");
          text.insert(after_title == std::string::npos ? text.size() : after_title + 2, block + "\n");
        }
        std::ofstream(readme, std::ios::binary | std::ios::trunc) << text;
        continue;
      }
      ASSERT_NE(begin, std::string::npos) << "no status table: run with PROFLOW_UPDATE_STATUS_TABLES=1";
      ASSERT_NE(end, std::string::npos);
      EXPECT_EQ(text.substr(begin, end + std::strlen(kEnd) - begin), block)
          << "the table differs from metadata.yaml: run with PROFLOW_UPDATE_STATUS_TABLES=1";
    }
  }
}

TEST(ComponentMetadata, TodaysNamesAndTheirDeprecatedAliasesLoadTheSameComponent) {
  Registry registry;
  ASSERT_TRUE(registerBuiltins(registry).isOk());
  const std::pair<ComponentKind, std::pair<const char*, const char*>> renamed[] = {
      {ComponentKind::kExporter, {"otlp", "otlp_grpc"}},
      {ComponentKind::kExporter, {"otlphttp", "otlp_http"}},
      {ComponentKind::kExporter, {"loadbalancing", "load_balancing"}},
      {ComponentKind::kProcessor, {"resourcedetection", "resource_detection"}}};
  for (const auto& [kind, names] : renamed) {
    const auto& [old_name, type] = names;
    ASSERT_NE(registry.find(kind, type), nullptr) << type;
    EXPECT_EQ(registry.find(kind, old_name), registry.find(kind, type)) << old_name;
    ASSERT_NE(registry.aliasTarget(kind, old_name), nullptr);
    EXPECT_EQ(*registry.aliasTarget(kind, old_name), type);
    EXPECT_EQ(registry.aliasTarget(kind, type), nullptr);
  }
  // The receiver keeps `otlp`: only the exporter was renamed.
  EXPECT_EQ(registry.aliasTarget(ComponentKind::kReceiver, "otlp"), nullptr);

  const std::string yaml = R"(receivers:
  otlp:
    protocols: { grpc: { endpoint: 127.0.0.1:0 } }
exporters:
  otlphttp/backend: { endpoint: http://127.0.0.1:9 }
  otlp_grpc: { endpoint: 127.0.0.1:9 }
processors:
  resourcedetection: { detectors: [env] }
service:
  pipelines:
    profiles:
      receivers: [otlp]
      processors: [resourcedetection]
      exporters: [otlphttp/backend, otlp_grpc]
)";
  config::ServiceConfig cfg;
  std::string errors;
  std::vector<std::string> warnings;
  ASSERT_TRUE(config::loadServiceConfigText(yaml, "c.yaml", registry, &cfg, &errors, &warnings).isOk()) << errors;
  const ComponentId backend{"otlphttp", "backend"};
  ASSERT_TRUE(cfg.exporters.count(backend));
  EXPECT_EQ(cfg.exporters.at(backend).factory, registry.find(ComponentKind::kExporter, "otlp_http"));
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_NE(warnings[0].find("c.yaml:8:3: processors.resourcedetection"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("\"resourcedetection\" alias is deprecated; use \"resource_detection\" instead"),
            std::string::npos) << warnings[0];
  EXPECT_NE(warnings[1].find("\"otlphttp\" alias is deprecated; use \"otlp_http\" instead"), std::string::npos)
      << warnings[1];
}

TEST(ComponentMetadata, MalformedMetadataIsRefusedNamingTheFileAndKey) {
  ComponentMetadata m;
  const Status ok = parseComponentMetadata(R"(type: thing
deprecated_aliases: [oldthing]
description: does things
status: { class: processor, stability: { beta: [profiles] } }
trust: { accepts: its pipeline's data, exposes: nothing }
)", "processors/thing/metadata.yaml", &m);
  ASSERT_TRUE(ok.isOk()) << ok.message();
  EXPECT_EQ(m.kind, ComponentKind::kProcessor);
  EXPECT_EQ(stabilitySummary(m), "profiles: beta");

  const std::pair<const char*, const char*> bad[] = {
      {"type: Thing\ndescription: d\nstatus: {class: processor, stability: {beta: [profiles]}}\n"
       "trust: {accepts: a, exposes: b}\n", "lower_snake_case"},
      {"type: thing\ndescription: d\nstatus: {class: gadget, stability: {beta: [profiles]}}\n"
       "trust: {accepts: a, exposes: b}\n", "not a component kind"},
      {"type: thing\ndescription: d\nstatus: {class: processor, stability: {solid: [profiles]}}\n"
       "trust: {accepts: a, exposes: b}\n", "unknown level 'solid'"},
      {"type: thing\ndescription: d\nstatus: {class: processor, stability: {beta: [profiles]}}\n", "trust"},
      {"type: thing\ndescription: d\ncolour: red\nstatus: {class: processor, stability: {beta: [profiles]}}\n"
       "trust: {accepts: a, exposes: b}\n", "unknown key 'colour'"},
  };
  for (const auto& [yaml, expected] : bad) {
    const Status s = parseComponentMetadata(yaml, "processors/thing/metadata.yaml", &m);
    EXPECT_FALSE(s.isOk()) << yaml;
    EXPECT_NE(s.message().find("processors/thing/metadata.yaml"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find(expected), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace proflow
