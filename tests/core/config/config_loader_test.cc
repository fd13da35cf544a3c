#include <gtest/gtest.h>

#include <map>

#include "core/config/config_loader.h"
#include "tests/support/temp_dir.h"

namespace proflow::config {
namespace {

EnvLookup fakeEnv(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

std::string expand(const std::string& s, const EnvLookup& env, ConfigErrors* errors = nullptr,
                   std::vector<std::string>* warnings = nullptr) {
  ConfigErrors local_errors;
  std::vector<std::string> local_warnings;
  return expandEnv(s, env, {"f.yaml", 1, 1}, errors ? *errors : local_errors, warnings ? *warnings : local_warnings);
}

TEST(ConfigLoader, ExpandsEnvironmentReferences) {
  auto env = fakeEnv({{"HOST", "gateway"}, {"EMPTY", ""}});
  EXPECT_EQ(expand("${env:HOST}:4317", env), "gateway:4317");
  EXPECT_EQ(expand("${env:PORT:-4317}", env), "4317");
  EXPECT_EQ(expand("${env:EMPTY:-fallback}", env), "fallback");
  EXPECT_EQ(expand("$${env:HOST}", env), "${env:HOST}");
  // "$$" is a literal "$" (the Collector's escape; OTTL replacements are written "$$1").
  EXPECT_EQ(expand("k8s.$$1.", env), "k8s.$1.");
  EXPECT_EQ(expand("$$$${env:HOST}", env), "$${env:HOST}");
  EXPECT_EQ(expand("a$b", env), "a$b");
  EXPECT_EQ(expand("plain", env), "plain");
}

TEST(ConfigLoader, UnsetVariableWithoutDefaultWarnsAndExpandsToEmpty) {
  std::vector<std::string> warnings;
  EXPECT_EQ(expand("a${env:NOPE}b", fakeEnv({}), nullptr, &warnings), "ab");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("NOPE"), std::string::npos);
}

// The Collector's default scheme is env: a reference without one reads the environment.
TEST(ConfigLoader, BareReferencesReadTheEnvironment) {
  auto env = fakeEnv({{"HOST", "gateway"}, {"EMPTY", ""}});
  ConfigErrors errors;
  EXPECT_EQ(expand("${HOST}:4317", env, &errors), "gateway:4317");
  EXPECT_EQ(expand("${PORT:-4317}", env, &errors), "4317");
  EXPECT_EQ(expand("${EMPTY:-x}", env, &errors), "x");
  EXPECT_EQ(expand("$${HOST}", env, &errors), "${HOST}");
  EXPECT_TRUE(errors.empty()) << errors.format();
}

TEST(ConfigLoader, FileReferencesReadTheFileWithoutItsLineEnd) {
  testing::TempDir dir;
  const std::string token = dir.write("token", "s3cr3t\n");
  ConfigErrors errors;
  EXPECT_EQ(expand("Bearer ${file:" + token + "}", fakeEnv({}), &errors), "Bearer s3cr3t");
  EXPECT_TRUE(errors.empty()) << errors.format();
  expand("${file:" + dir.file("missing") + "}", fakeEnv({}), &errors);
  expand("${file:" + dir.path().string() + "}", fakeEnv({}), &errors);  // a directory is not read
  EXPECT_EQ(errors.size(), 2u) << errors.format();
}

TEST(ConfigLoader, BadReferencesAreErrors) {
  ConfigErrors errors;
  expand("${env:1BAD}", fakeEnv({}), &errors);
  expand("${1BAD}", fakeEnv({}), &errors);
  expand("${env:OPEN", fakeEnv({}), &errors);
  expand("${http://example/config}", fakeEnv({}), &errors);
  EXPECT_EQ(errors.size(), 4u) << errors.format();
  EXPECT_NE(errors.format().find("unsupported reference"), std::string::npos) << errors.format();
}

TEST(ConfigLoader, KeepsLineAndColumnOfEveryNode) {
  ConfigErrors errors;
  auto r = parseYaml("a:\n  b: 1\n  c:\n    - x\n", "test.yaml", errors, fakeEnv({}));
  ASSERT_TRUE(errors.empty()) << errors.format();
  const ConfigNode* a = r.root.find("a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->keyLocation("b").str(), "test.yaml:2:3");
  EXPECT_EQ(a->find("c")->items[0].location.str(), "test.yaml:4:7");
}

TEST(ConfigLoader, InvalidYamlReportsPosition) {
  ConfigErrors errors;
  parseYaml("a: [1, 2\nb: c\n", "broken.yaml", errors, fakeEnv({}));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors.format().find("broken.yaml:"), std::string::npos) << errors.format();
}

TEST(ConfigLoader, DuplicateKeysAreErrors) {
  ConfigErrors errors;
  parseYaml("a: 1\na: 2\n", "dup.yaml", errors, fakeEnv({}));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors.format().find("dup.yaml:2:1"), std::string::npos) << errors.format();
}

TEST(ConfigLoader, LaterFilesOverrideEarlierOnes) {
  testing::TempDir dir;
  auto base = dir.write("base.yaml", "exporters:\n  x: {endpoint: a, keep: 1}\nlist: [1, 2]\n");
  auto over = dir.write("over.yaml", "exporters:\n  x: {endpoint: b}\n  y: {}\nlist: [3]\n");
  ConfigErrors errors;
  auto r = loadFiles({base, over}, errors, fakeEnv({}));
  ASSERT_TRUE(errors.empty()) << errors.format();
  const ConfigNode* x = r.root.find("exporters")->find("x");
  EXPECT_EQ(x->find("endpoint")->scalar, "b");
  EXPECT_EQ(x->find("endpoint")->location.file, over);
  EXPECT_EQ(x->find("keep")->scalar, "1");
  EXPECT_NE(r.root.find("exporters")->find("y"), nullptr);
  ASSERT_EQ(r.root.find("list")->items.size(), 1u);  // lists are replaced, not merged
}

TEST(ConfigLoader, SourcesAreFilesEnvironmentVariablesAndYamlWithDelimitedKeys) {
  testing::TempDir dir;
  auto base = dir.write("base.yaml", "processors:\n  batch: {timeout: 5s, send_batch_size: 10}\n");
  ConfigErrors errors;
  auto r = loadFiles({"file:" + base, "env:OVERLAY", "yaml:processors::batch::timeout: 2s",
                      "yaml:service::pipelines::profiles::exporters: [debug, file]"},
                     errors, fakeEnv({{"OVERLAY", "exporters: {debug: {}}"}}));
  ASSERT_TRUE(errors.empty()) << errors.format();
  const ConfigNode* batch = r.root.find("processors")->find("batch");
  EXPECT_EQ(batch->find("timeout")->scalar, "2s");
  EXPECT_EQ(batch->find("send_batch_size")->scalar, "10");
  EXPECT_NE(r.root.find("exporters")->find("debug"), nullptr);
  const ConfigNode* exporters = r.root.find("service")->find("pipelines")->find("profiles")->find("exporters");
  ASSERT_NE(exporters, nullptr);
  ASSERT_EQ(exporters->items.size(), 2u);
  EXPECT_EQ(exporters->items[1].scalar, "file");
  EXPECT_EQ(configFilePaths({"file:" + base, "env:OVERLAY", "yaml:a: b", "plain.yaml"}),
            (std::vector<std::string>{base, "plain.yaml"}));
}

TEST(ConfigLoader, SetFlagsBecomeYamlSources) {
  std::string error;
  EXPECT_EQ(setFlagToUri("processors::batch::timeout=2s", &error), "yaml:processors::batch::timeout: 2s");
  EXPECT_EQ(setFlagToUri("exporters::otlp::headers::x=a=b", &error), "yaml:exporters::otlp::headers::x: a=b");
  EXPECT_TRUE(error.empty());
  EXPECT_EQ(setFlagToUri("no-value", &error), "");
  EXPECT_NE(error.find("KEY=VALUE"), std::string::npos);
  EXPECT_EQ(setFlagToUri("a:::b=1", &error), "");
}

TEST(ConfigLoader, UnknownSourceSchemesAndUnsetVariablesAreErrors) {
  ConfigErrors errors;
  loadFiles({"http://example/config.yaml", "env:NOT_SET"}, errors, fakeEnv({}));
  EXPECT_EQ(errors.size(), 2u) << errors.format();
  EXPECT_NE(errors.format().find("unsupported config source scheme 'http:'"), std::string::npos) << errors.format();
}

TEST(ConfigLoader, MissingFileIsAnError) {
  ConfigErrors errors;
  loadFiles({"/nonexistent/proflow.yaml"}, errors, fakeEnv({}));
  EXPECT_EQ(errors.size(), 1u);
}

}  // namespace
}  // namespace proflow::config
