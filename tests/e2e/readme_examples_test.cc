// Every YAML example in the READMEs is a configuration `proflow validate` accepts, so the docs a
// newcomer copies from cannot drift from the code (a renamed key, a removed value, a typo).
//
// Component READMEs show their own section and, often, a `service:` section that names components
// the example does not define (`receivers: [otlp]`, `processors: [batch]`): those are filled in with
// a minimal definition, and an example without a `service:` section gets a pipeline through all it
// defines. The one error tolerated is a missing file (`ca_file: /etc/proflow/ca.pem`): an example
// may name files a real deployment has and this machine does not.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

namespace fs = std::filesystem;

struct Example {
  std::string readme;  // relative to the source tree
  int block = 0;       // 1-based, among the README's ```yaml blocks
  int line = 0;        // of the block's first YAML line in the README
  std::string yaml;
};

std::vector<Example> examplesOf(const fs::path& root, const fs::path& readme) {
  std::vector<Example> out;
  std::ifstream in(readme);
  std::string line;
  int n = 0, block = 0;
  Example* open = nullptr;
  while (std::getline(in, line)) {
    ++n;
    if (open == nullptr && line.rfind("```yaml", 0) == 0) {
      out.push_back({fs::relative(readme, root).string(), ++block, n + 1, {}});
      open = &out.back();
    } else if (open != nullptr && line.rfind("```", 0) == 0) {
      open = nullptr;
    } else if (open != nullptr) {
      open->yaml += line + "\n";
    }
  }
  return out;
}

std::vector<Example> allExamples() {
  const fs::path root = PROFLOW_SOURCE_DIR;
  std::vector<fs::path> readmes = {root / "README.md"};
  for (const char* kind : {"receivers", "processors", "exporters", "extensions"})
    for (const auto& dir : fs::directory_iterator(root / kind))
      if (fs::exists(dir.path() / "README.md")) readmes.push_back(dir.path() / "README.md");
  std::sort(readmes.begin(), readmes.end());
  std::vector<Example> all;
  for (const auto& r : readmes)
    for (auto& e : examplesOf(root, r)) all.push_back(std::move(e));
  return all;
}

// The least a component needs to validate, for ids an example uses but does not define; any type not
// listed validates with no settings. An example that names another type needing settings fails with
// validate's message: add the type here.
struct MinimalDefinition {
  const char* section;
  const char* type;
  const char* yaml;
};
constexpr MinimalDefinition kMinimalDefinitions[] = {
    {"receivers", "otlp", "{protocols: {grpc: {endpoint: 127.0.0.1:4317}}}"},
    {"processors", "memory_limiter", "{limit_mib: 512}"},
    {"exporters", "otlp", "{endpoint: 127.0.0.1:4317}"},
    {"exporters", "otlp_grpc", "{endpoint: 127.0.0.1:4317}"},
    {"exporters", "file", "{path: profiles.jsonl}"},
};

YAML::Node minimalDefinition(const std::string& section, const std::string& id) {
  const std::string type = id.substr(0, id.find('/'));
  for (const auto& m : kMinimalDefinitions)
    if (section == m.section && type == m.type) return YAML::Load(m.yaml);
  return YAML::Node(YAML::NodeType::Map);
}

// The example as a whole configuration (see the file comment).
YAML::Node completed(YAML::Node doc) {
  const char* kSections[] = {"receivers", "processors", "exporters"};
  if (!doc["service"]) {
    YAML::Node pipeline;
    for (const char* s : kSections)
      if (doc[s])
        for (const auto& kv : doc[s]) pipeline[s].push_back(kv.first.as<std::string>());
    if (!pipeline["receivers"]) pipeline["receivers"].push_back("otlp");
    if (!pipeline["exporters"]) pipeline["exporters"].push_back("debug");
    doc["service"]["pipelines"]["profiles"] = pipeline;
  }
  for (const auto& p : doc["service"]["pipelines"])
    for (const char* s : kSections)
      if (p.second[s])
        for (const auto& id : p.second[s]) {
          const auto name = id.as<std::string>();
          if (!doc[s] || !doc[s][name]) doc[s][name] = minimalDefinition(s, name);
        }
  return doc;
}

// validate's error lines other than a missing file.
std::vector<std::string> unexpectedErrors(const std::string& output) {
  static const std::regex kErrorLine(R"(^\S+:\d+:\d+: .*)");
  std::vector<std::string> out;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);)
    if (std::regex_match(line, kErrorLine) && line.find("does not exist or is not a regular file") == std::string::npos)
      out.push_back(line);
  return out;
}

// gtest prints a failing parameter with this (instead of its bytes).
void PrintTo(const Example& e, std::ostream* os) { *os << e.readme << " yaml block " << e.block; }

class ReadmeExample : public ::testing::TestWithParam<Example> {};

TEST_P(ReadmeExample, IsAValidConfiguration) {
  const Example& e = GetParam();
  SCOPED_TRACE(e.readme + ":" + std::to_string(e.line) + " (yaml block " + std::to_string(e.block) + ")");
  YAML::Node doc;
  ASSERT_NO_THROW(doc = YAML::Load(e.yaml)) << "not YAML:\n" << e.yaml;
  ASSERT_TRUE(doc.IsMap()) << "an example is a configuration (receivers:/processors:/exporters:/service:), got:\n"
                           << e.yaml;
  testing::TempDir dir;
  std::ostringstream config;
  config << completed(doc);
  const std::string path = dir.write("example.yaml", config.str());
  std::string out;
  const int rc = testing::runCommand({testing::proflowBinary(), "validate", "--config", path}, &out);
  const bool names_missing_files = out.find("does not exist or is not a regular file") != std::string::npos;
  EXPECT_TRUE(unexpectedErrors(out).empty()) << "as validated:\n" << config.str() << "\nproflow validate said:\n" << out;
  if (!names_missing_files) {
    EXPECT_EQ(rc, 0) << "as validated:\n" << config.str() << "\nproflow validate said:\n" << out;
  }
}

std::string exampleName(const ::testing::TestParamInfo<Example>& info) {
  std::string name = info.param.readme + "_" + std::to_string(info.param.block);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Readmes, ReadmeExample, ::testing::ValuesIn(allExamples()), exampleName);

TEST(ReadmeExamples, AreFound) {
  // Guards the walk above: the READMEs of the components this repository ships have examples.
  std::set<std::string> with_examples;
  for (const auto& e : allExamples()) with_examples.insert(e.readme);
  for (const char* readme : {"README.md", "receivers/otlp/README.md", "processors/batch/README.md",
                             "exporters/file/README.md"})
    EXPECT_TRUE(with_examples.count(readme)) << readme;
}

}  // namespace
}  // namespace proflow
