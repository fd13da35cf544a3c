// The status page's value formatting (core/status/page/units.js), run by Node.js as the browser runs
// it: a CPU series' nanoseconds read as seconds or milliseconds, bytes as KiB/MiB/GiB, counts with
// k/M/G, a series type's unit taken after its last '/'.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "core/status/status_api.h"
#include "tests/support/daemon.h"

namespace proflow::status {
namespace {

using namespace std::chrono_literals;

// JavaScript expressions (using valueText and unitOf) and what each must give.
const std::vector<std::pair<std::string, std::string>> kCases = {
    {"valueText(4e9, 'nanoseconds')", "4.0 s"},  // the CPU total that read "4.0 G"
    {"valueText(20e6, 'nanoseconds')", "20.0 ms"},
    {"valueText(1500, 'nanoseconds')", "1.5 µs"},
    {"valueText(999, 'nanoseconds')", "999 ns"},
    {"valueText(90e9, 'nanoseconds')", "1.5 min"},
    {"valueText(250, 'milliseconds')", "250 ms"},
    {"valueText(-3e6, 'nanoseconds')", "-3.0 ms"},  // a comparison's decrease
    {"valueText(4096, 'bytes')", "4.0 KiB"},
    {"valueText(1.5 * 2 ** 20, 'bytes')", "1.5 MiB"},
    {"valueText(3 * 2 ** 30, 'B')", "3.0 GiB"},
    {"valueText(512, 'bytes')", "512 B"},
    {"valueText(12345, 'count')", "12.3 k"},
    {"valueText(4e9, 'count')", "4.0 G"},
    {"valueText(7)", "7"},
    {"valueText(2500, 'objects')", "2.5 k objects"},
    {"valueText(null, 'bytes')", "–"},
    {"unitOf('cpu/nanoseconds')", "nanoseconds"},
    {"unitOf('alloc_space/bytes')", "bytes"},
    {"'[' + unitOf('cpu') + ']'", "[]"},
};

TEST(StatusPageUnits, ValuesReadInTheirUnitsHumanForm) {
  const std::string units = std::string(PROFLOW_SOURCE_DIR) + "/core/status/page/units.js";
  std::string script = "const { valueText, unitOf } = require(process.argv[1]);\n";
  for (const auto& [expression, expected] : kCases) script += "console.log(" + expression + ");\n";
  std::string out;
  ASSERT_EQ(testing::runCommand({"node", "-e", script, units}, &out, 60s), 0) << out;
  std::vector<std::string> lines;
  for (size_t at = 0, nl; (nl = out.find('\n', at)) != std::string::npos; at = nl + 1) lines.push_back(out.substr(at, nl - at));
  ASSERT_EQ(lines.size(), kCases.size()) << out;
  for (size_t i = 0; i < kCases.size(); ++i) EXPECT_EQ(lines[i], kCases[i].second) << kCases[i].first;
}

// The page loads units.js before status.js, which formats the flame graph with it.
TEST(StatusPageUnits, ThePageLoadsTheScript) {
  const std::string html = kStatusPageHtml;
  EXPECT_LT(html.find("<script src=\"units.js\"></script>"), html.find("<script src=\"status.js\"></script>"));
  EXPECT_NE(std::string(kStatusPageUnitsJs).find("function valueText("), std::string::npos);
  EXPECT_NE(std::string(kStatusPageJs).find("valueText(data.total, unit)"), std::string::npos);
}

}  // namespace
}  // namespace proflow::status
