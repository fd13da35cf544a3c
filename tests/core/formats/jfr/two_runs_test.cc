// The same program recorded by two JVM runs (testdata/Generated.java: proxies in its own package and
// in a jdk.proxyN module, reflection accessors, lambdas), each run numbering its generated classes
// differently; `proflow convert` of both must name the same functions, and none with a per-run part.
// With --keep-generated-names the two runs' names differ: the test can tell merging from luck.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>

#include "tests/core/formats/jfr/wild_recordings.h"
#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using testing::runCommand;

// Records `Generated <shift> 3` into dir/<name>.jfr; "" on success, else what failed.
std::string record(const testing::TempDir& dir, const std::string& classes, const std::string& name, int shift) {
  std::string log;
  const int rc = runCommand({"java", "-XX:StartFlightRecording=settings=profile,filename=" + dir.file(name + ".jfr"), "-cp",
                             classes, "Generated", std::to_string(shift), "3"},
                            &log);
  return rc == 0 ? "" : "java exited " + std::to_string(rc) + ": " + log;
}

// Function names of the cpu profile's frames that belong to the program or to its generated classes,
// in the stacks of its hot loop (sampled hundreds of times a run; start-up and the JDK's own frames
// of a rare sample would make the sets differ by chance).
std::set<std::string> programFunctions(const testing::TempDir& dir, const std::string& name, bool keep_raw) {
  std::vector<std::string> argv = {testing::proflowBinary(), "convert", dir.file(name + ".jfr"),
                                   dir.file(name + ".folded"), "--to", "folded", "--sample-type", "cpu"};
  if (keep_raw) argv.push_back("--keep-generated-names");
  std::string log;
  EXPECT_EQ(runCommand(argv, &log), 0) << log;
  std::set<std::string> names;
  std::istringstream in(testing::readFile(dir.file(name + ".folded")));
  for (std::string line; std::getline(in, line);) {
    if (line.find(";Generated.hot;") == std::string::npos) continue;  // the worker's loop, not start-up
    std::istringstream frames(line.substr(0, line.rfind(' ')));
    for (std::string f; std::getline(frames, f, ';');)
      if (f.rfind("Generated.", 0) == 0 || f.rfind("Generated$$Lambda", 0) == 0 || f.rfind("$Proxy", 0) == 0 || f.find(".$Proxy") != std::string::npos ||
          f.find("reflect.Generated") != std::string::npos)
        names.insert(f);
  }
  return names;
}

std::string joined(const std::set<std::string>& s) {
  std::string out;
  for (const auto& x : s) out += "  " + x + "\n";
  return out;
}

TEST(JfrTwoRuns, GeneratedNamesAreTheSameInBothRuns) {
  testing::TempDir dir;
  std::string log;
  const std::string classes = dir.file("classes");
  ASSERT_EQ(runCommand({"javac", "-d", classes, std::string(PROFLOW_SOURCE_DIR) + "/tests/core/formats/jfr/testdata/Generated.java"},
                       &log),
            0)
      << "javac (openjdk-17-jdk-headless) failed: " << log;
  ASSERT_EQ(record(dir, classes, "first", 0), "");
  ASSERT_EQ(record(dir, classes, "second", 4), "");

  const std::set<std::string> first = programFunctions(dir, "first", false);
  const std::set<std::string> second = programFunctions(dir, "second", false);
  EXPECT_EQ(first, second) << "first run:\n" << joined(first) << "second run:\n" << joined(second);
  for (const auto& f : first) EXPECT_FALSE(testing::hasPerRunPart(f)) << f;
  // The workload's generated classes were sampled, merged.
  for (std::string_view want : {"Generated$$Lambda.run", "$Proxy.work", "jdk.proxy.$Proxy.get", "jdk.internal.reflect.GeneratedMethodAccessor.invoke",
                                "jdk.internal.reflect.GeneratedConstructorAccessor.newInstance"})
    EXPECT_EQ(first.count(std::string(want)), 1u) << want << " missing from:\n" << joined(first);

  // As recorded, the runs disagree: the JVM numbered its generated classes differently.
  const std::set<std::string> raw_first = programFunctions(dir, "first", true);
  const std::set<std::string> raw_second = programFunctions(dir, "second", true);
  EXPECT_NE(raw_first, raw_second);
  size_t per_run = 0;
  for (const auto& f : raw_first) per_run += testing::hasPerRunPart(f) ? 1 : 0;
  EXPECT_GE(per_run, 4u) << joined(raw_first);
}

}  // namespace
}  // namespace proflow
