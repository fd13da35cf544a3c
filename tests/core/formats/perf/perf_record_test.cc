// A real `perf record -g` of the stripped workload, made at test time, through `proflow convert`:
// after symbolization the folded stacks equal perf script's own symbolized stacks of the same file.
//
// Comparison rules: user frames by function name, with names the symbol table gives one address
// (aliases such as __libc_start_main / __libc_start_main_impl) counted as one; frames neither tool
// can name (junk addresses past the outermost frame) left out on both sides. Kernel frames by name
// too: perf script reads this machine's /proc/kallsyms, and so does convert --symbolize when the
// recording's kernel build id is the running kernel's (always here: the recording is made on this
// machine). Where kallsyms hides addresses (kptr_restrict) both sides leave them unnamed (`[kernel]`).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "core/formats/jfr/folded.h"
#include "tests/support/fold_request.h"
#include "core/formats/perf/perf.h"
#include "tests/core/formats/perf/perf_test_util.h"
#include "tests/support/daemon.h"
#include "tests/support/machine_permits.h"
#include "tests/support/otlp_files.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

namespace fs = std::filesystem;
using testing::FoldBy;
using testing::Folded;

Folded readFolded(const std::string& path) {
  Folded out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const size_t sp = line.rfind(' ');
    if (sp != std::string::npos) out[line.substr(0, sp)] += std::stoll(line.substr(sp + 1));
  }
  return out;
}

int convert(const std::vector<std::string>& args, std::string* output) {
  std::vector<std::string> argv = {testing::proflowBinary(), "convert"};
  argv.insert(argv.end(), args.begin(), args.end());
  return testing::runCommand(argv, output);
}

// The entries that differ (a readable failure message for large maps).
std::string difference(const Folded& ours, const Folded& theirs) {
  std::string out;
  int shown = 0;
  auto show = [&](const std::string& stack, int64_t a, int64_t b) {
    if (a != b && shown++ < 20)
      out += "\n  " + stack + ": ours " + std::to_string(a) + ", perf script " + std::to_string(b);
  };
  for (const auto& [stack, n] : ours) show(stack, n, theirs.count(stack) ? theirs.at(stack) : 0);
  for (const auto& [stack, n] : theirs)
    if (!ours.count(stack)) show(stack, 0, n);
  return out;
}

int64_t total(const Folded& f) {
  int64_t n = 0;
  for (const auto& [stack, count] : f) n += count;
  return n;
}

// Every test here records with perf at test time: skipped with the reason where the machine refuses it.
class PerfRecord : public ::testing::Test {
 protected:
  void SetUp() override { PROFLOW_SKIP_IF_REFUSED(testing::perfRecordRefused()); }
};

TEST_F(PerfRecord, SymbolizedFoldedStacksEqualPerfScripts) {
  const auto& r = testing::perfRecording();
  testing::TempDir out;
  std::string log;
  ASSERT_EQ(convert({r.data, out.file("out.folded"), "--to", "folded", "--sample-type", "samples", "--symbolize",
                     "--debug-dir", r.debug_dir},
                    &log),
            0)
      << log;
  const Folded ours = testing::canonicalNames(readFolded(out.file("out.folded")), r.unstripped);
  const Folded perfs =
      testing::canonicalNames(testing::foldPerfScript(testing::perfScriptOf(r), FoldBy::kName), r.unstripped);
  EXPECT_EQ(ours, perfs);
  // The workload's hot paths are there, with their share of the samples (3 : 1 : 2 by design).
  int64_t parse = 0, parser_checksum = 0, render = 0;
  for (const auto& [stack, n] : ours) {
    if (stack.ends_with("main;run_parser;parse_tokens")) parse += n;
    if (stack.ends_with("main;run_parser;checksum_block")) parser_checksum += n;
    if (stack.ends_with("main;run_render;checksum_block")) render += n;
  }
  EXPECT_GT(parse, total(ours) / 4) << log;
  EXPECT_GT(parser_checksum, 0);
  EXPECT_GT(render, parser_checksum);
}

// With the unstripped binary at the recorded path (same build id), perf script names user frames
// from it (and kernel frames from this machine's kallsyms); convert --symbolize does the same.
TEST_F(PerfRecord, TheBinaryAtTheRecordedPathIsUsedWhenItsBuildIdMatches) {
  const auto& r = testing::perfRecording();
  testing::TempDir out;
  const std::string saved = out.file("stripped");
  fs::copy_file(r.binary, saved);
  std::string log;
  fs::copy_file(r.unstripped, r.binary, fs::copy_options::overwrite_existing);
  ASSERT_EQ(convert({r.data, out.file("a.folded"), "--to", "folded", "--sample-type", "samples", "--symbolize"}, &log),
            0)
      << log;
  const std::string script = out.file("script.txt");
  ASSERT_EQ(testing::runCommand({"sh", "-c", "perf script -i '" + r.data + "' > '" + script + "' 2>/dev/null"}, &log),
            0);
  const Folded named = readFolded(out.file("a.folded"));
  EXPECT_EQ(testing::canonicalNames(named, r.unstripped),
            testing::canonicalNames(testing::foldPerfScript(testing::readFile(script), FoldBy::kName), r.unstripped));
  // Another binary at that path (a different build id) is not trusted: no workload names.
  ASSERT_EQ(testing::runCommand({PROFLOW_CXX, "-g", "-O0", "-DOTHER_BUILD", "-o", r.binary,
                                 std::string(PROFLOW_SOURCE_DIR) + "/tests/core/formats/perf/perf_workload.cc"},
                                &log),
            0)
      << log;
  ASSERT_EQ(convert({r.data, out.file("b.folded"), "--to", "folded", "--sample-type", "samples", "--symbolize"}, &log),
            0)
      << log;
  const Folded unnamed = readFolded(out.file("b.folded"));
  fs::copy_file(saved, r.binary, fs::copy_options::overwrite_existing);
  bool named_main = false, unnamed_main = false;
  for (const auto& [stack, n] : named) named_main |= stack.find("run_parser") != std::string::npos;
  for (const auto& [stack, n] : unnamed) unnamed_main |= stack.find("run_parser") != std::string::npos;
  EXPECT_TRUE(named_main) << ::testing::PrintToString(named);
  EXPECT_FALSE(unnamed_main) << ::testing::PrintToString(unnamed);
}

// The daemon's path: POST /v1/perf -> symbolize processor (debug_dirs, by build id) -> file
// exporter. The processor names user frames as perf script does; it leaves kernel frames `[kernel]`.
TEST_F(PerfRecord, TheSymbolizeProcessorNamesUserFramesOfPostedRecordings) {
  const auto& r = testing::perfRecording();
  testing::TempDir dir;
  const int port = testing::freePort(), metrics_port = testing::freePort();
  const std::string out = dir.file("out.otlp");
  const std::string config =
      "receivers: { perf: { endpoint: 127.0.0.1:" + std::to_string(port) +
      " } }\n"
      "processors: { symbolize: { debug_dirs: [" +
      r.debug_dir +
      "] } }\n"
      "exporters: { file: { path: " +
      out +
      ", format: otlp_proto } }\n"
      "service:\n  telemetry: { metrics: { address: 127.0.0.1:" +
      std::to_string(metrics_port) +
      " } }\n"
      "  pipelines: { profiles: { receivers: [perf], processors: [symbolize], exporters: [file] } }\n";
  testing::Daemon daemon({"--config", dir.write("perf.yaml", config)}, dir.file("daemon.log"));
  ASSERT_TRUE(daemon.waitHealthy(metrics_port)) << daemon.log();
  std::string code;
  ASSERT_EQ(testing::runCommand({"curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@" + r.data,
                                 "http://127.0.0.1:" + std::to_string(port) + "/v1/perf"},
                                &code),
            0);
  EXPECT_EQ(code, "200");
  EXPECT_EQ(daemon.terminate(), 0) << daemon.log();
  const auto requests = testing::readOtlpProtoFile(out);
  ASSERT_EQ(requests.size(), 1u);
  jfr::FoldOptions fo;
  fo.sample_type = "samples";
  const auto folded = jfr::foldStacks(requests[0], fo);
  const Folded ours = testing::canonicalNames(Folded(folded.begin(), folded.end()), r.unstripped);
  const Folded perfs =
      testing::canonicalNames(testing::foldPerfScript(testing::perfScriptOf(r), FoldBy::kNameNoKernel), r.unstripped);
  EXPECT_TRUE(ours == perfs) << difference(ours, perfs);
}

TEST_F(PerfRecord, ClockDataPutsSamplesOnTheWallClock) {
  const auto& r = testing::perfRecording();
  flat::Batch b;
  perf::Result result;
  ASSERT_TRUE(perf::perfDataToFlat(testing::readFile(r.data), {}, &b, &result).isOk());
  EXPECT_TRUE(result.clock_anchored);  // recorded with -k CLOCK_MONOTONIC: the CLOCK_DATA header
  ASSERT_FALSE(b.timestamps.empty());
  for (uint64_t t : b.timestamps) {
    EXPECT_GE(t, r.started_unix_nano);
    EXPECT_LE(t, r.ended_unix_nano);
  }
  EXPECT_EQ(b.timestamps.size(), result.samples);
}

TEST_F(PerfRecord, PipeModeRecordingDecodesLikeTheFile) {
  const auto& r = testing::perfRecording();
  const std::string pipe = r.dir + "/pipe.perf.data", script = r.dir + "/pipe.txt";
  std::string log;
  ASSERT_EQ(testing::runCommand({"sh", "-c",
                                 "perf record -q -g -e cpu-clock -o - '" + r.binary + "' 1 > '" + pipe +
                                     "' 2>/dev/null && perf script -i '" + pipe + "' > '" + script + "' 2>/dev/null"},
                                &log),
            0)
      << log;
  flat::Batch b;
  Status s = perf::perfDataToFlat(testing::readFile(pipe), {}, &b);
  ASSERT_TRUE(s.isOk()) << s.message();
  const Folded perfs = testing::foldPerfScript(testing::readFile(script), FoldBy::kAddress);
  EXPECT_GT(total(perfs), 100);
  EXPECT_EQ(testing::foldBatchByAddress(b), perfs);
}

// Records the workload with `flags` and decodes the file: the stacks (by address) are perf
// script's, the profiles' sample types are `events`; returns the batch. `alongside`, when given,
// is a shell command started before the recording (which begins once it printed a line: it runs
// then), sent SIGTERM after it and waited for; its failure fails the recording.
flat::Batch recordAndCompare(const std::string& name, const std::string& flags, const std::set<std::string>& events,
                             const std::string& alongside = "") {
  const auto& r = testing::perfRecording();
  const std::string data = r.dir + "/" + name + ".perf.data", script = r.dir + "/" + name + ".txt";
  std::string shell = "perf record -q -g " + flags + " --no-buildid-cache -o '" + data + "' '" + r.binary +
                      "' 1 2>/dev/null && perf script -i '" + data + "' > '" + script + "' 2>/dev/null";
  if (!alongside.empty()) {
    const std::string ready = r.dir + "/" + name + ".ready";  // a FIFO: no sleeping on the start
    shell = "rm -f '" + ready + "' && mkfifo '" + ready + "' || exit 1\n" + alongside + " > '" + ready +
            "' &\nALONGSIDE=$!\nread started < '" + ready + "'\n" + shell + "\nRC=$?\nkill $ALONGSIDE\nwait $ALONGSIDE || RC=1\nexit $RC\n";
  }
  std::string log;
  EXPECT_EQ(testing::runCommand({"sh", "-c", shell}, &log), 0) << log;
  flat::Batch b;
  perf::Result result;
  Status s = perf::perfDataToFlat(testing::readFile(data), {}, &b, &result);
  EXPECT_TRUE(s.isOk()) << name << ": " << s.message();
  const Folded perfs = testing::foldPerfScript(testing::readFile(script), FoldBy::kAddress);
  EXPECT_EQ(total(perfs), static_cast<int64_t>(result.samples)) << name;
  const Folded ours = testing::foldBatchByAddress(b);
  EXPECT_TRUE(ours == perfs) << name << difference(ours, perfs);
  std::set<std::string> seen;
  for (const flat::Profile& p : b.profiles) {
    // Where kernel samples are refused (perf_event_paranoid 2 without root) perf records user space
    // only and names the event so: "cpu-clock:u".
    std::string event(b.string(p.period_type.type_strindex));
    if (event.ends_with(":u")) event.resize(event.size() - 2);
    seen.insert(event);
  }
  EXPECT_EQ(seen, events) << name;
  return b;
}

// Recordings with several attrs: two events (PERF_SAMPLE_ID picks the event), and system-wide with
// CPUs (a side-band `dummy` event, PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_CPU, every process's maps).
TEST_F(PerfRecord, TwoEventRecordingsDecodeLikePerfScript) {
  recordAndCompare("two", "-e cpu-clock -e task-clock", {"cpu-clock", "task-clock"});
}

// Also running, from before the recording started to after it ended: a Go program (a non-PIE
// executable, text from 0x400000) and its child, the workload (non-PIE too, with less text), so the
// recording holds the FORKs perf record writes for running processes, and user frames of both.
TEST_F(PerfRecord, SystemWideRecordingsDecodeLikePerfScript) {
  PROFLOW_SKIP_IF_REFUSED(testing::perfRecordRefused(/*system_wide=*/true));
  std::string go_error;
  const std::string goparent = testing::goParentBinary(&go_error);
  PROFLOW_SKIP_IF_REFUSED(go_error);
  const auto& r = testing::perfRecording();
  // Both run until the recording ended (the child's length only bounds them if this test dies).
  const std::string alongside = "'" + goparent + "' '" + r.binary + "' 60";
  const flat::Batch b = recordAndCompare("all", "-a -e cpu-clock", {"cpu-clock"}, alongside);
  size_t with_cpu = 0;  // the CPU of every sample
  for (size_t row = 0; row < b.samples.size(); ++row)
    for (int32_t a : b.indexList(b.samples.attributes[row]))
      with_cpu += b.string(b.attributes[static_cast<size_t>(a)].key_strindex) == "cpu.logical_number";
  EXPECT_EQ(with_cpu, b.samples.size());
  bool go_sampled = false;  // a mapping is made when a sample first lands in it
  for (const flat::Mapping& m : b.mappings) go_sampled |= b.string(m.filename_strindex) == goparent;
  EXPECT_TRUE(go_sampled) << "no sample of the Go program";
}

TEST_F(PerfRecord, PerfScriptTextConvertsToTheSameStacks) {
  const auto& r = testing::perfRecording();
  testing::TempDir out;
  const std::string text = out.write("script.txt", testing::perfScriptOf(r));
  std::string log;
  ASSERT_EQ(convert({text, out.file("out.folded"), "--to", "folded", "--sample-type", "samples"}, &log), 0) << log;
  EXPECT_EQ(readFolded(out.file("out.folded")), testing::foldPerfScript(testing::readFile(text), FoldBy::kName));
  ASSERT_EQ(convert({text, out.file("out.pb"), "--from", "perf-script", "--to", "pprof"}, &log), 0) << log;
}

TEST_F(PerfRecord, DamagedRecordingsFailTheConversionWithAMessage) {
  const auto& r = testing::perfRecording();
  testing::TempDir out;
  const std::string data = testing::readFile(r.data);
  const std::string truncated = out.write("truncated.data", data.substr(0, data.size() * 2 / 3));
  std::string log;
  EXPECT_EQ(convert({truncated, out.file("x.folded"), "--to", "folded"}, &log), 1);
  EXPECT_NE(log.find("perf.data: offset"), std::string::npos) << log;
  std::string flipped = data;
  flipped[42] = static_cast<char>(flipped[42] ^ 0x40);  // data.offset's high bits: the section lies past the end
  const std::string bad = out.write("flipped.data", flipped);
  EXPECT_EQ(convert({bad, out.file("y.folded"), "--to", "folded"}, &log), 1);
  EXPECT_NE(log.find("perf.data: offset 40: data section"), std::string::npos) << log;
}

}  // namespace
}  // namespace proflow
