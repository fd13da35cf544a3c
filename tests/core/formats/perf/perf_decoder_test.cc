// The perf.data decoder and the perf script reader on the committed fixture (a recording of
// perf_workload.cc and perf's own `perf script` of it; see testdata/README.md).
#include <gtest/gtest.h>

#include <random>

#include "core/flat/flat_attributes.h"
#include "core/formats/jfr/folded.h"
#include "core/formats/perf/kernel_symbols.h"
#include "core/formats/perf/perf.h"
#include "tests/core/formats/perf/perf_stream_writer.h"
#include "tests/core/formats/perf/perf_test_util.h"
#include "tests/support/daemon.h"
#include "tests/support/machine_permits.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using testing::FoldBy;

constexpr uint64_t kEnd = 1'800'000'000'000'000'000ull;
constexpr int kFixtureSamples = 169;

std::string fixtureData() { return testing::readFile(testing::perfFixture("workload.perf.data")); }
std::string fixtureScript() { return testing::readFile(testing::perfFixture("workload.perf-script.txt")); }

Status decode(const std::string& data, flat::Batch* b, perf::Options o = {}) {
  if (o.end_time_unix_nano == 0) o.end_time_unix_nano = kEnd;
  return perf::perfDataToFlat(data, o, b);
}

std::string attr(const flat::Batch& b, int32_t index) {
  const flat::Attribute& a = b.attributes[static_cast<size_t>(index)];
  return std::string(b.string(a.key_strindex)) + "=" + flat::valueText(b, a.value);
}

TEST(PerfDecoder, FixtureStacksEqualPerfScriptsAddressForAddress) {
  flat::Batch b;
  perf::Result r;
  ASSERT_TRUE(perf::perfDataToFlat(fixtureData(), {.end_time_unix_nano = kEnd}, &b, &r).isOk());
  EXPECT_EQ(r.samples, static_cast<uint64_t>(kFixtureSamples));
  EXPECT_FALSE(r.clock_anchored);
  const testing::Folded ours = testing::foldBatchByAddress(b);
  const testing::Folded perfs = testing::foldPerfScript(fixtureScript(), FoldBy::kAddress);
  EXPECT_EQ(ours, perfs);
  int64_t total = 0;
  for (const auto& [stack, n] : ours) total += n;
  EXPECT_EQ(total, kFixtureSamples);
}

TEST(PerfDecoder, ProfilesAttributesMappingsAndTimes) {
  flat::Batch b;
  ASSERT_TRUE(decode(fixtureData(), &b).isOk());
  ASSERT_EQ(b.profiles.size(), 2u);  // cpu-clock periods, and sample counts
  const flat::Profile& periods = b.profiles[0];
  EXPECT_EQ(b.string(periods.sample_type.type_strindex), "cpu-clock");
  EXPECT_EQ(b.string(periods.sample_type.unit_strindex), "nanoseconds");
  EXPECT_EQ(b.string(b.profiles[1].sample_type.type_strindex), "samples");
  EXPECT_EQ(b.view(periods.original_payload_format), "perf");
  int64_t period_sum = 0;
  uint64_t last = 0, stamps = 0;
  std::set<std::string> attrs;
  for (uint32_t row = periods.samples.begin; row < periods.samples.end(); ++row) {
    for (int64_t v : flat::Batch::slice(b.values, b.samples.values[row])) period_sum += v;
    for (uint64_t t : flat::Batch::slice(b.timestamps, b.samples.timestamps[row])) last = std::max(last, t), ++stamps;
    for (int32_t a : b.indexList(b.samples.attributes[row])) attrs.insert(attr(b, a));
  }
  EXPECT_EQ(period_sum, int64_t{kFixtureSamples} * 1'000'000);  // perf script prints 1000000 for each
  EXPECT_EQ(stamps, static_cast<uint64_t>(kFixtureSamples));
  EXPECT_EQ(last, kEnd);  // no clock anchor in the file: the last sample ends at the given time
  EXPECT_EQ(periods.time_unix_nano + periods.duration_nano, kEnd);
  EXPECT_TRUE(attrs.count("thread.id=23024")) << ::testing::PrintToString(attrs);
  EXPECT_TRUE(attrs.count("process.pid=23024"));
  EXPECT_TRUE(attrs.count("process.executable.name=workload"));
  EXPECT_TRUE(attrs.count("thread.name=workload"));

  std::map<std::string, std::string> build_ids;
  for (const flat::Mapping& m : b.mappings)
    for (int32_t a : b.indexList(m.attributes)) build_ids[std::string(b.string(m.filename_strindex))] = attr(b, a);
  EXPECT_EQ(build_ids["/tmp/proflow-perf-fixture/workload"],
            "process.executable.build_id.gnu=d8ff5b7826022af0219d19444ce04793c7320a62");
  EXPECT_EQ(build_ids["[kernel.kallsyms]"], "process.executable.build_id.gnu=a3e4cd60a8ec14f02aa41b41d5b5846d3d9f1dd8");
  for (const flat::Mapping& m : b.mappings)
    if (b.string(m.filename_strindex) == "/tmp/proflow-perf-fixture/workload") {
      EXPECT_GT(m.memory_limit, m.memory_start);
      EXPECT_EQ(m.memory_start % 4096, 0u);
    }

  // Kernel frames carry no name in perf.data: `[kernel]`, with their address and frame type.
  int kernel = 0;
  for (const flat::Location& l : b.locations) {
    if (l.lines.size == 0) continue;
    const flat::Line& line = b.lines[l.lines.begin];
    EXPECT_EQ(b.string(b.functions[static_cast<size_t>(line.function_index)].name_strindex), "[kernel]");
    EXPECT_GE(l.address, 0xffff800000000000ull);
    for (int32_t a : b.indexList(l.attributes)) EXPECT_EQ(attr(b, a), "profile.frame.type=kernel");
    ++kernel;
  }
  EXPECT_GT(kernel, 0);
  EXPECT_EQ(flat::resourceAttribute(b, b.resources[0], "host.arch"), "amd64");
  EXPECT_EQ(flat::resourceAttribute(b, b.resources[0], "os.type"), "linux");
  EXPECT_EQ(flat::resourceAttribute(b, b.resources[0], "perf.version"), "6.1.187");
}

TEST(PerfDecoder, KernelFramesAreNamedFromKallsymsOfTheRecordedKernelOnly) {
  flat::Batch b;
  ASSERT_TRUE(decode(fixtureData(), &b).isOk());
  const std::string kallsyms =
      "0000000000000000 A fixed_percpu_data\n"
      "ffffffff81000000 T _stext\n"
      "ffffffff81000000 t startup_64\n"
      "ffffffff81500000 d some_data\n"
      "ffffffff82000000 T upper_half\n"
      "ffffffffc0000000 t module_fn\t[ext4]\n";
  flat::Batch other = b;
  EXPECT_EQ(perf::nameKernelFrames(&other, kallsyms, "0123456789abcdef0123456789abcdef01234567"), 0u);
  const uint64_t named = perf::nameKernelFrames(&b, kallsyms, "a3e4cd60a8ec14f02aa41b41d5b5846d3d9f1dd8");
  EXPECT_GT(named, 0u);
  for (const flat::Location& l : b.locations) {
    if (l.lines.size == 0) continue;
    const std::string_view name =
        b.string(b.functions[static_cast<size_t>(b.lines[l.lines.begin].function_index)].name_strindex);
    EXPECT_EQ(name, l.address >= 0xffffffff82000000ull ? "upper_half" : "_stext") << std::hex << l.address;
  }
  // The running kernel's build id comes from its notes (/sys/kernel/notes).
  std::string notes("\x04\0\0\0\x04\0\0\0\x01\0\0\0GNU\0\x01\x02\x03\x04", 20);
  notes += std::string("\x04\0\0\0\x03\0\0\0\x03\0\0\0GNU\0\xab\xcd\xef\0", 20);
  EXPECT_EQ(perf::buildIdFromNotes(notes), "abcdef");
  EXPECT_EQ(perf::buildIdFromNotes(notes.substr(0, 30)), "");
}

// Processes as a system-wide recording shows them (`perf record -a`): a Go program (a non-PIE
// executable, text from 0x400000) runs a smaller Go program, both already running when the
// recording started, so perf record wrote their FORKs itself; a child the parent forks during the
// recording; and a pid that exits and is given to another process.
std::string processHistory() {
  testing::PerfStreamWriter w;
  w.comm(100, 100, "goparent", 0);
  w.mmap2(100, 0x400000, 0xa0000, 0, "/opt/goparent", 0);
  w.fork(200, 100, 0, /*synthesized=*/true);
  w.comm(200, 200, "gochild", 0);
  w.mmap2(200, 0x400000, 0x65000, 0, "/opt/gochild", 0);
  w.comm(400, 400, "other", 0);
  w.mmap2(400, 0x500000, 0x1000, 0, "/opt/other", 0);
  w.fork(300, 100, 1000, /*synthesized=*/false);
  w.sample(200, {0x401234, 0x485444}, 1001);
  w.sample(300, {0x401234, 0x485444}, 1002);
  w.sample(100, {0x485444}, 1003);
  w.exit(200, 100, 1005);
  w.fork(200, 400, 1010, /*synthesized=*/false);
  w.sample(200, {0x401234, 0x500010}, 1011);
  return w.bytes();
}

// Each address against the maps perf script resolves it in: a FORK perf record wrote for a running
// process copies none of its parent's maps (what the child's own maps leave uncovered of the
// parent's longer text is unmapped: the raw address); a FORK of the kernel copies them all; a
// reused pid starts from its new parent's maps.
TEST(PerfDecoder, ForkedProcessesHaveTheMapsPerfScriptGivesThem) {
  flat::Batch b;
  ASSERT_TRUE(decode(processHistory(), &b).isOk());
  const testing::Folded expected = {
      {"485444;1234", 1},  // gochild: its own text, then past it (the parent's text is not its)
      {"85444;1234", 1},   // forked by goparent during the recording: goparent's maps
      {"85444", 1},        // goparent itself
      {"10;401234", 1},    // pid 200 again, now forked by `other`: only other's maps
  };
  EXPECT_EQ(testing::foldBatchByAddress(b), expected);
}

// The same history through perf script itself (reading needs no right to record).
TEST(PerfDecoder, ForkedProcessesDecodeLikePerfScript) {
  std::string where;
  PROFLOW_SKIP_IF_REFUSED(testing::runCommand({"sh", "-c", "command -v perf"}, &where) == 0
                              ? ""
                              : "perf is not installed (Debian linux-perf, see scripts/install-deps.sh)");
  testing::TempDir dir;
  const std::string data = dir.write("history.perf.data", processHistory());
  const std::string script = dir.file("history.txt");
  std::string log;
  ASSERT_EQ(testing::runCommand({"sh", "-c", "perf script -i '" + data + "' > '" + script + "' 2>/dev/null"}, &log), 0)
      << log;
  flat::Batch b;
  ASSERT_TRUE(decode(processHistory(), &b).isOk());
  const testing::Folded perfs = testing::foldPerfScript(testing::readFile(script), FoldBy::kAddress);
  EXPECT_EQ(perfs.size(), 4u) << testing::readFile(script);
  EXPECT_EQ(testing::foldBatchByAddress(b), perfs);
}

TEST(PerfScript, FixtureTextBecomesTheSameStacksWithNames) {
  flat::Batch b;
  perf::Result r;
  const std::string text = fixtureScript();
  ASSERT_EQ(perf::detect(text), "perf-script");
  ASSERT_TRUE(perf::perfToFlat(text, {.end_time_unix_nano = kEnd}, &b, &r).isOk());
  EXPECT_EQ(r.samples, static_cast<uint64_t>(kFixtureSamples));
  jfr::FoldOptions fo;
  fo.sample_type = "samples";
  const auto ours = jfr::foldStacks(b, fo);
  EXPECT_EQ(testing::Folded(ours.begin(), ours.end()), testing::foldPerfScript(text, FoldBy::kName));
  EXPECT_GT(ours.at("__do_global_dtors_aux;__libc_start_call_main;main;run_parser;parse_tokens"), 40);
  // And the addresses survive: the same fold by address as the perf.data decoder's.
  EXPECT_EQ(testing::foldBatchByAddress(b), testing::foldPerfScript(text, FoldBy::kAddress));
}

TEST(PerfScript, OtherFieldLayouts) {
  // -F +pid with a CPU column, a comm with a space, --ns times, and a recording without callchains
  // (the frame on the header line).
  const std::string text =
      "# ========\n# captured on    : today\n# ========\n#\n"
      "Web Content  4242/4243 [001] 100.000000100: 250000 cpu-clock:ppp: \n"
      "\t    55d0c1a3b1c9 handle_request+0x20 (/usr/bin/server)\n"
      "\tffffffff81000130 entry_SYSCALL_64+0x76 ([kernel.kallsyms])\n"
      "\t               0 [unknown] ([unknown])\n"
      "\n"
      "server 77 [000] 101.5: 100 cycles:  55d0c1a3b1c9 parse+0x1 (/usr/bin/server)\n";
  flat::Batch b;
  ASSERT_TRUE(perf::perfScriptToFlat(text, {.end_time_unix_nano = kEnd}, &b).isOk());
  ASSERT_EQ(b.profiles.size(), 4u);  // two events, each periods + counts
  std::set<std::string> types, attrs;
  for (const flat::Profile& p : b.profiles) types.insert(std::string(b.string(p.sample_type.type_strindex)));
  EXPECT_EQ(types, (std::set<std::string>{"cpu-clock:ppp", "cycles", "samples"}));
  for (size_t row = 0; row < b.samples.size(); ++row)
    for (int32_t a : b.indexList(b.samples.attributes[row])) attrs.insert(attr(b, a));
  EXPECT_TRUE(attrs.count("process.pid=4242"));
  EXPECT_TRUE(attrs.count("thread.id=4243"));
  EXPECT_TRUE(attrs.count("cpu.logical_number=1"));
  EXPECT_TRUE(attrs.count("thread.name=Web Content"));
  EXPECT_TRUE(attrs.count("thread.id=77"));
  jfr::FoldOptions fo;
  fo.sample_type = "samples";
  const auto folded = jfr::foldStacks(b, fo);
  EXPECT_EQ(folded, (std::map<std::string, int64_t>{{"entry_SYSCALL_64;handle_request", 1}, {"parse", 1}}));
  // The two samples are 1.4999999 s apart; the last ends at the given end time.
  std::vector<uint64_t> times(b.timestamps.begin(), b.timestamps.end());
  std::sort(times.begin(), times.end());
  EXPECT_EQ(times.back(), kEnd);
  EXPECT_EQ(times.back() - times.front(), 1'499'999'900u);
}

TEST(PerfScript, TextThatIsNotPerfScriptIsRefusedWithTheLine) {
  flat::Batch b;
  Status s = perf::perfScriptToFlat("prog 12 1.5: 1 cpu-clock:\n\tnot-an-address foo (bar)\n", {}, &b);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("line 2"), std::string::npos) << s.message();
  s = perf::perfScriptToFlat("\tffff foo (bar)\n", {}, &b);
  EXPECT_NE(s.message().find("outside a sample"), std::string::npos) << s.message();
  EXPECT_EQ(perf::detect("main;foo 12\n"), "");
  EXPECT_EQ(perf::perfToFlat("main;foo 12\n", {}, &b).code(), StatusCode::kInvalidArgument);
}

TEST(PerfDecoder, EveryTruncationIsRefusedWithAMessage) {
  const std::string data = fixtureData();
  for (size_t len = 0; len < data.size(); len += len < 400 ? 1 : 37) {
    flat::Batch b;
    Status s = decode(data.substr(0, len), &b);
    ASSERT_EQ(s.code(), StatusCode::kInvalidArgument) << "prefix of " << len << " bytes";
    ASSERT_EQ(s.message().rfind("perf.data: ", 0), 0u) << s.message();
    ASSERT_TRUE(b.profiles.empty());
  }
}

// A pipe-mode stream (perf record -o -) has no sizes in its header: cut at a record boundary it is a
// shorter recording; cut inside a record it is refused as truncated.
TEST(PerfDecoder, PipeModeStreamsCutAnywhereAreReadOrRefusedCleanly) {
  const std::string data =
      testing::readFile(std::string(PROFLOW_SOURCE_DIR) + "/tests/fuzz/corpus/perf/seed-pipe-mode");
  flat::Batch whole;
  perf::Result r;
  ASSERT_TRUE(perf::perfDataToFlat(data, {.end_time_unix_nano = kEnd}, &whole, &r).isOk());
  EXPECT_GT(r.samples, 5u);
  int read = 0, truncated = 0;
  for (size_t len = 16; len < data.size(); ++len) {
    flat::Batch b;
    Status s = decode(data.substr(0, len), &b);
    if (s.isOk()) {
      ++read;
      continue;
    }
    ASSERT_EQ(s.code(), StatusCode::kInvalidArgument);
    ASSERT_EQ(s.message().rfind("perf.data: offset ", 0), 0u) << s.message();
    truncated += s.message().find("truncated") != std::string::npos;
  }
  EXPECT_GT(read, 0);
  EXPECT_GT(truncated, 0);
}

TEST(PerfDecoder, BitFlipsNeverCrash) {
  const std::string data = fixtureData();
  std::mt19937_64 rng(16);
  int refused = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string copy = data;
    const size_t at = rng() % copy.size();
    copy[at] = static_cast<char>(copy[at] ^ (1 << (rng() % 8)));
    flat::Batch b;
    Status s = decode(copy, &b);
    if (!s.isOk()) {
      ++refused;
      ASSERT_EQ(s.code(), StatusCode::kInvalidArgument);
      ASSERT_FALSE(s.message().empty());
    }
  }
  EXPECT_GT(refused, 0);
}

TEST(PerfDecoder, RefusalsNameTheReason) {
  const std::string data = fixtureData();
  auto message = [](const std::string& d, perf::Options o = {}) {
    flat::Batch b;
    return perf::perfDataToFlat(d, o, &b).message();
  };
  std::string swapped = data;
  std::reverse(swapped.begin(), swapped.begin() + 8);
  EXPECT_NE(message(swapped).find("big-endian"), std::string::npos);
  std::string unfinished = data;
  std::fill(unfinished.begin() + 48, unfinished.begin() + 56, '\0');
  EXPECT_NE(message(unfinished).find("did not finish"), std::string::npos);
  perf::Options shallow;
  shallow.limits.max_stack_depth = 3;
  EXPECT_NE(message(data, shallow).find("limit"), std::string::npos);
  perf::Options few;
  few.limits.max_samples = 10;
  EXPECT_NE(message(data, few).find("more than 10 samples"), std::string::npos);
  EXPECT_NE(message("PERFFILE").find("shorter"), std::string::npos);
  perf::Options reserve;
  reserve.reserve_memory = [](size_t) { return Status::exhausted("budget"); };
  EXPECT_EQ(message(data, reserve), "budget");
}

}  // namespace
}  // namespace proflow
