// Registration in one place: every component folder of the tree is a registered type of its kind
// (a folder left out of the build, or declaring no factory, fails here), and a folder that declares
// itself with proflow_component() is registered with no line anywhere else (the example component).
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "cmd/proflow/builtins.h"
#include "core/config/service_config.h"
#include "core/graph/pipeline_graph.h"
#include "tests/support/components/test_components.h"
#include "tests/support/fake_components.h"
#include "tests/support/profile_builder.h"
#include "tests/support/stand_ins.h"
#include "tests/support/flat_request.h"

namespace proflow {
namespace {

TEST(Registration, EveryComponentFolderIsARegisteredTypeOfItsKind) {
  Registry registry;
  ASSERT_TRUE(registerBuiltins(registry).isOk());
  const std::pair<const char*, ComponentKind> kinds[] = {{"receivers", ComponentKind::kReceiver},
                                                         {"processors", ComponentKind::kProcessor},
                                                         {"exporters", ComponentKind::kExporter},
                                                         {"extensions", ComponentKind::kExtension},
                                                         {"connectors", ComponentKind::kConnector}};
  for (const auto& [dir, kind] : kinds) {
    std::set<std::string> folders;
    for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(PROFLOW_SOURCE_DIR) / dir))
      if (e.is_directory()) folders.insert(e.path().filename().string());
    ASSERT_FALSE(folders.empty()) << dir;
    for (const auto& type : folders) EXPECT_NE(registry.find(kind, type), nullptr) << dir << "/" << type << " is not registered";
    const auto types = registry.types(kind);
    EXPECT_EQ(std::set<std::string>(types.begin(), types.end()), folders) << "types without a folder of their name in " << dir;
  }
}

// tests/support/components/example: a folder with a CMakeLists.txt calling proflow_component(),
// a factory, a config and the exporter; nothing else names it.
TEST(Registration, AComponentFolderRegistersItselfAndRunsInAPipeline) {
  Registry registry;
  testing::registerFakes(registry);
  ASSERT_TRUE(registerTestComponents(registry).isOk());
  ASSERT_NE(registry.find(ComponentKind::kExporter, "example"), nullptr);

  config::ServiceConfig bad;
  std::string errors;
  EXPECT_FALSE(config::loadServiceConfigText(R"(
receivers: { fake: {} }
exporters: { example: { limit: -1 } }
service: { pipelines: { profiles: { receivers: [fake], exporters: [example] } } }
)", "c.yaml", registry, &bad, &errors).isOk());
  EXPECT_NE(errors.find("limit: must be >= 0"), std::string::npos) << errors;

  config::ServiceConfig cfg;
  errors.clear();
  ASSERT_TRUE(config::loadServiceConfigText(R"(
receivers: { fake: {} }
exporters: { example: { limit: 1 } }
service: { pipelines: { profiles: { receivers: [fake], exporters: [example] } } }
)", "c.yaml", registry, &cfg, &errors).isOk()) << errors;
  Runtime runtime{1, 1};
  telemetry::MetricsRegistry metrics;
  testing::NullHost host;
  std::unique_ptr<graph::PipelineGraph> g;
  ASSERT_TRUE(graph::PipelineGraph::build(cfg, runtime, metrics, &g).isOk());
  ASSERT_TRUE(g->start(host).isOk());
  auto* receiver = testing::FakeReceiver::find("fake");
  EXPECT_TRUE(receiver->push(::proflow::testing::batchOf(testing::makeRequest("svc", {testing::makeProfile(2)}))).isOk());
  const Status refused = receiver->push(::proflow::testing::batchOf(testing::makeRequest("svc", {testing::makeProfile(2)})));
  EXPECT_EQ(refused.code(), StatusCode::kResourceExhausted) << refused.toString();
  g->shutdown(std::chrono::steady_clock::now());
}

}  // namespace
}  // namespace proflow
