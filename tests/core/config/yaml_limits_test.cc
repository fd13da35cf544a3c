// What reading one config file may cost: size, nodes, aliases and nesting are bounded, and errors
// quote only a prefix of a huge value.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/config/config_loader.h"
#include "core/config/config_reader.h"
#include "tests/support/temp_dir.h"

namespace proflow::config {
namespace {

using ::testing::HasSubstr;

EnvLookup noEnv() {
  return [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
}

// The classic "billion laughs": nine levels of nine aliases to the level below (9^9 leaves).
std::string billionLaughs(const std::string& under) {
  std::string doc = under + ":\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int i = 1; i <= 9; ++i) {
    std::string prev = "*l" + std::to_string(i - 1);
    doc += "  l" + std::to_string(i) + ": &l" + std::to_string(i) + " [";
    for (int j = 0; j < 9; ++j) doc += (j ? ", " : "") + prev;
    doc += "]\n";
  }
  return doc;
}

TEST(YamlLimits, SmallAliasesStillWork) {
  ConfigErrors errors;
  auto r = parseYaml("base: &b {endpoint: \"x:1\", retries: 3}\na: *b\nb: [*b, *b]\n", "a.yaml", errors, noEnv());
  ASSERT_TRUE(errors.empty()) << errors.format();
  EXPECT_EQ(r.root.find("a")->find("endpoint")->scalar, "x:1");
  EXPECT_TRUE(r.root.find("a")->find("endpoint")->quoted);
  EXPECT_EQ(r.root.find("b")->items[1].find("retries")->scalar, "3");
}

TEST(YamlLimits, BillionLaughsIsRefusedBeforeItExpands) {
  // Under a key no component reads: the expansion happens while reading the file, whatever the key.
  for (const char* under : {"receivers", "unknown_top_level_key"}) {
    ConfigErrors errors;
    parseYaml(billionLaughs(under), "bomb.yaml", errors, noEnv());
    ASSERT_EQ(errors.size(), 1u) << errors.format();
    const ConfigError& e = errors.all()[0];
    EXPECT_THAT(e.message, HasSubstr("alias *l"));
    EXPECT_THAT(e.message, HasSubstr("past 50000"));
    EXPECT_EQ(e.location.file, "bomb.yaml");
    EXPECT_GT(e.location.line, 2);
  }
}

TEST(YamlLimits, NodeCountIsBounded) {
  YamlLimits limits;
  limits.max_nodes = 1000;
  std::string doc = "list: [";
  for (int i = 0; i < 2000; ++i) doc += "1, ";
  doc += "1]\n";
  ConfigErrors errors;
  parseYaml(doc, "wide.yaml", errors, noEnv(), limits);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors.format(), HasSubstr("wide.yaml:1:"));
  EXPECT_THAT(errors.format(), HasSubstr("more than 1000 nodes"));
}

TEST(YamlLimits, NestingDepthIsBounded) {
  ConfigErrors errors;
  parseYaml("a: " + std::string(100'000, '[') + std::string(100'000, ']') + "\n", "deep.yaml", errors, noEnv());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors.format(), HasSubstr("deep.yaml:1:"));
  EXPECT_THAT(errors.format(), HasSubstr("nesting deeper than 64 levels"));
  ConfigErrors ok;
  parseYaml("a: " + std::string(60, '[') + std::string(60, ']') + "\n", "fine.yaml", ok, noEnv());
  EXPECT_TRUE(ok.empty()) << ok.format();
}

TEST(YamlLimits, FileSizeIsBounded) {
  testing::TempDir dir;
  auto path = dir.write("big.yaml", "a: " + std::string(100, 'x') + "\n");
  YamlLimits limits;
  limits.max_file_bytes = 64;
  ConfigErrors errors;
  loadFiles({path}, errors, noEnv(), limits);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors.all()[0].location.file, path);
  EXPECT_THAT(errors.all()[0].message, HasSubstr("larger than 64 bytes"));
  // The default admits real configs and refuses 8 MiB and more.
  ConfigErrors big;
  parseYaml("a: " + std::string(size_t{8} << 20, 'x') + "\n", "huge.yaml", big, noEnv());
  EXPECT_THAT(big.format(), HasSubstr("larger than 8388608 bytes"));
}

struct Numbers {
  uint32_t port = 0;
  Duration timeout;
  template <class V>
  void visit(V& v) {
    v.field("port", port);
    v.field("timeout", timeout);
  }
};

TEST(YamlLimits, ErrorsQuoteAShortPrefixOfAHugeValue) {
  const std::string huge(50'000'000, '9');
  auto env = [&](const std::string&) -> std::optional<std::string> { return huge; };
  ConfigErrors errors;
  auto r = parseYaml("port: ${env:BIG}\ntimeout: x${env:BIG}\n", "big.yaml", errors, env);
  ASSERT_TRUE(errors.empty()) << errors.format().substr(0, 500);
  Numbers n;
  FieldReader reader(r.root, "", errors, nullptr);
  n.visit(reader);
  ASSERT_EQ(errors.size(), 2u);
  for (const auto& e : errors.all()) {
    EXPECT_LT(e.message.size(), 200u) << e.message.substr(0, 300);
    EXPECT_THAT(e.message, HasSubstr("...' (5000000"));
  }
  EXPECT_THAT(errors.all()[0].message, HasSubstr("got '" + std::string(64, '9') + "...' (50000000 bytes)"));
  EXPECT_THAT(errors.all()[1].message, HasSubstr("got 'x" + std::string(63, '9') + "...' (50000001 bytes)"));
  EXPECT_EQ(quoteValue("short"), "'short'");
}

}  // namespace
}  // namespace proflow::config
