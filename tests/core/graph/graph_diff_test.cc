// Which nodes a reload keeps, rebuilds, adds and removes.
#include <gtest/gtest.h>

#include "core/config/config_loader.h"
#include "core/graph/graph_diff.h"
#include "tests/support/fake_components.h"

namespace proflow {
namespace {

using graph::NodeChange;
using graph::NodeKey;

// An extension type for the diff: nothing runs, only its settings matter.
class NoteExtensionFactory final : public ExtensionFactoryFor<testing::FakeConfig> {
 public:
  std::string_view type() const override { return "note"; }
  std::string_view description() const override { return "test extension"; }

 protected:
  std::unique_ptr<Extension> createExtension(const CreateSettings&, const testing::FakeConfig&) const override {
    return nullptr;
  }
};

class GraphDiffTest : public ::testing::Test {
 protected:
  void SetUp() override {
    testing::registerFakes(registry_);
    ASSERT_TRUE(registry_.add(std::make_unique<NoteExtensionFactory>()).isOk());
  }

  config::ServiceConfig load(const std::string& yaml, const std::string& file = "a.yaml") {
    config::ServiceConfig cfg;
    std::string errors;
    EXPECT_TRUE(config::loadServiceConfigText(yaml, file, registry_, &cfg, &errors).isOk()) << errors;
    return cfg;
  }

  Registry registry_;
};

NodeKey receiver(const std::string& id) { return {ComponentKind::kReceiver, *ComponentId::parse(id), ""}; }
NodeKey exporter(const std::string& id) { return {ComponentKind::kExporter, *ComponentId::parse(id), ""}; }
NodeKey processor(const std::string& id, const std::string& pipeline) {
  return {ComponentKind::kProcessor, *ComponentId::parse(id), pipeline};
}

constexpr const char* kBefore = R"(
receivers: { fake: { value: 1 }, fake/old: {} }
processors: { fake/batch: { label: five, value: 5 }, fake/keep: { label: x } }
exporters: { fake/out: { label: out }, fake/gone: {} }
service:
  pipelines:
    profiles: { receivers: [fake], processors: [fake/keep, fake/batch], exporters: [fake/out] }
    profiles/b: { receivers: [fake/old], processors: [fake/keep], exporters: [fake/gone] }
)";

TEST_F(GraphDiffTest, SortsEveryNodeIntoKeptChangedAddedRemoved) {
  const auto before = load(kBefore);
  // fake/batch gets another value, fake/attr is new in the pipeline, fake/keep moved behind it,
  // pipeline b (its receiver, processor instance and exporter) is gone, pipeline c is new.
  const auto after = load(R"(
receivers: { fake: { value: 1 }, fake/new: {} }
processors: { fake/batch: { label: five, value: 6 }, fake/keep: { label: x }, fake/attr: {} }
exporters: { fake/out: { label: out } }
service:
  pipelines:
    profiles: { receivers: [fake], processors: [fake/attr, fake/batch, fake/keep], exporters: [fake/out] }
    profiles/c: { receivers: [fake/new], exporters: [fake/out] }
)");
  const auto d = graph::diffConfigs(before, after);
  EXPECT_EQ(d.change(receiver("fake")), NodeChange::kKept);
  EXPECT_EQ(d.change(exporter("fake/out")), NodeChange::kKept);
  EXPECT_EQ(d.change(processor("fake/keep", "profiles")), NodeChange::kKept);  // moved, same settings
  EXPECT_EQ(d.change(processor("fake/batch", "profiles")), NodeChange::kChanged);
  EXPECT_EQ(d.change(processor("fake/attr", "profiles")), NodeChange::kAdded);
  EXPECT_EQ(d.change(receiver("fake/new")), NodeChange::kAdded);
  EXPECT_EQ(d.change(receiver("fake/old")), NodeChange::kRemoved);
  EXPECT_EQ(d.change(processor("fake/keep", "profiles/b")), NodeChange::kRemoved);
  EXPECT_EQ(d.change(exporter("fake/gone")), NodeChange::kRemoved);
  EXPECT_EQ(d.count(NodeChange::kKept), 3u);
  EXPECT_EQ(d.count(NodeChange::kChanged), 1u);
  EXPECT_EQ(d.count(NodeChange::kAdded), 2u);
  EXPECT_EQ(d.count(NodeChange::kRemoved), 3u);
  EXPECT_FALSE(d.empty());
  EXPECT_NE(d.summary().find("1 changed (processor/fake/batch@profiles)"), std::string::npos) << d.summary();
  EXPECT_TRUE(d.extension_changes.empty());
  EXPECT_TRUE(d.restart_only.empty());
}

TEST_F(GraphDiffTest, ComparesParsedSettingsNotText) {
  const auto before = load(kBefore, "a.yaml");
  // Same settings written differently: block style, other key order, comments, quotes, other file.
  const auto same = load(R"(
# reformatted
exporters:
  fake/gone: {}
  fake/out:
    label: "out"
processors:
  fake/keep: { label: 'x' }
  fake/batch:
    value: 5      # same number
    label: five
receivers:
  fake/old:
  fake: { value: 1 }
service:
  pipelines:
    profiles/b: { receivers: [fake/old], processors: [fake/keep], exporters: [fake/gone] }
    profiles: { receivers: [fake], processors: [fake/keep, fake/batch], exporters: [fake/out] }
)",
                         "b.yaml");
  const auto d = graph::diffConfigs(before, same);
  EXPECT_TRUE(d.empty()) << d.summary();

  // A value that differs in one nested scalar is a change.
  const auto other = load(std::string(kBefore).replace(std::string(kBefore).find("label: out"), 10, "label: Out"));
  EXPECT_EQ(graph::diffConfigs(before, other).change(exporter("fake/out")), NodeChange::kChanged);
}

TEST_F(GraphDiffTest, SettingsEqualityIsStructural) {
  config::ConfigErrors errors;
  auto parse = [&](const std::string& y) { return config::parseYaml(y, "x.yaml", errors).root; };
  EXPECT_TRUE(graph::sameSettings(parse("{a: 1, b: [x, y]}"), parse("b:\n  - x\n  - y\na: 1\n")));
  EXPECT_FALSE(graph::sameSettings(parse("{a: 1, b: [x, y]}"), parse("{a: 1, b: [y, x]}")));  // lists keep order
  EXPECT_FALSE(graph::sameSettings(parse("{a: 1}"), parse("{a: 1, b: 2}")));
  EXPECT_FALSE(graph::sameSettings(parse("{a: }"), parse("{a: ''}")));  // null is not an empty string
  EXPECT_FALSE(graph::sameSettings(parse("{a: {b: 1}}"), parse("{a: [b]}")));
  EXPECT_TRUE(graph::sameSettings(parse("{a: {}}"), parse("a:\n")));  // both: every default
  EXPECT_FALSE(graph::sameSettings(parse("{a: {}}"), parse("{}")));   // absent is not present
  EXPECT_TRUE(errors.empty());
}

TEST_F(GraphDiffTest, ListsRestartOnlySettings) {
  const auto before = load(std::string(kBefore) + "  runtime: { workers: 2 }\n");
  const auto after = load(std::string(kBefore) +
                          "  runtime: { workers: 3 }\n  telemetry: { metrics: { address: 127.0.0.1:9999 } }\n");
  const auto d = graph::diffConfigs(before, after);
  EXPECT_TRUE(d.empty());
  ASSERT_EQ(d.restart_only.size(), 2u);
  EXPECT_NE(d.restart_only[0].find("service.telemetry.metrics.address"), std::string::npos);
  EXPECT_NE(d.restart_only[1].find("service.runtime.workers"), std::string::npos);
}

TEST_F(GraphDiffTest, ListsExtensionChanges) {
  const std::string with_note = std::string(kBefore) + "  extensions: [note, note/b]\n" +
                                "extensions: { note: { value: 1 }, note/b: {} }\n";
  const auto before = load(with_note);
  // Unchanged extensions are kept and listed nowhere.
  EXPECT_TRUE(graph::diffConfigs(before, load(with_note)).extension_changes.empty());
  std::string changed = with_note;
  changed.replace(changed.find("value: 1 }, note/b"), 8, "value: 2");
  changed.replace(changed.find("[note, note/b]"), 14, "[note]");
  const auto d = graph::diffConfigs(before, load(changed));
  ASSERT_EQ(d.extension_changes.size(), 2u);
  EXPECT_EQ(d.extension_changes[0], "extension/note changed");
  EXPECT_EQ(d.extension_changes[1], "extension/note/b removed");
}

}  // namespace
}  // namespace proflow
