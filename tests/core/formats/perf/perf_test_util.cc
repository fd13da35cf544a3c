#include "tests/core/formats/perf/perf_test_util.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <regex>
#include <sstream>
#include <vector>

#include "tests/support/daemon.h"
#include "tests/support/go_programs.h"
#include "tests/support/temp_dir.h"

namespace proflow::testing {
namespace {

namespace fs = std::filesystem;

uint64_t nowNanos() {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
}

std::string run(const std::vector<std::string>& argv) {
  std::string out;
  const int rc = runCommand(argv, &out);
  EXPECT_EQ(rc, 0) << argv[0] << " failed: " << out;
  return out;
}

PerfRecording makeRecording() {
  static TempDir dir;
  PerfRecording r;
  r.dir = dir.path().string();
  r.unstripped = dir.file("workload.full");
  r.binary = dir.file("workload");
  run({PROFLOW_CXX, "-g", "-O0", "-fno-omit-frame-pointer", "-static", "-o", r.unstripped,
       std::string(PROFLOW_SOURCE_DIR) + "/tests/core/formats/perf/perf_workload.cc"});
  run({"strip", "-o", r.binary, r.unstripped});
  const std::string notes = run({"readelf", "-n", r.unstripped});
  std::smatch m;
  if (std::regex_search(notes, m, std::regex("Build ID: ([0-9a-f]+)"))) r.build_id = m[1];
  EXPECT_GE(r.build_id.size(), 4u) << notes;
  r.debug_dir = dir.file("debug");
  const fs::path debug = fs::path(r.debug_dir) / ".build-id" / r.build_id.substr(0, 2);
  fs::create_directories(debug);
  fs::copy_file(r.unstripped, debug / (r.build_id.substr(2) + ".debug"));
  r.symfs = dir.file("symfs");
  const fs::path in_symfs = fs::path(r.symfs) / fs::path(r.binary).relative_path();
  fs::create_directories(in_symfs.parent_path());
  fs::copy_file(r.unstripped, in_symfs);
  r.data = dir.file("workload.perf.data");
  r.started_unix_nano = nowNanos();
  run({"perf", "record", "-q", "-g", "-e", "cpu-clock", "-k", "CLOCK_MONOTONIC", "--no-buildid-cache", "-o", r.data,
       r.binary, "1"});
  r.ended_unix_nano = nowNanos();
  return r;
}

}  // namespace

std::string perfFixture(const std::string& name) {
  return std::string(PROFLOW_SOURCE_DIR) + "/tests/core/formats/perf/testdata/" + name;
}

std::string goParentBinary(std::string* error) {
  static std::once_flag once;
  static std::string binary, build_error;
  std::call_once(once, [] {
    static TempDir dir;
    if (std::string failed = goBuild(std::string(PROFLOW_SOURCE_DIR) + "/tests/core/formats/perf/testdata/goparent",
                                     dir.file("goparent"));
        !failed.empty()) {
      build_error = "building testdata/goparent failed: " + failed;
      return;
    }
    binary = dir.file("goparent");
  });
  if (binary.empty()) *error = build_error;
  return binary;
}

const PerfRecording& perfRecording() {
  static const PerfRecording r = makeRecording();
  return r;
}

std::string perfScriptOf(const PerfRecording& r) {
  std::string out;
  // perf script prints its warnings on stderr, which runCommand merges: ask for a file instead.
  const std::string file = r.dir + "/script.txt";
  const int rc = runCommand({"sh", "-c",
                             "perf script -i '" + r.data + "' --symfs='" + r.symfs + "' --kallsyms=/proc/kallsyms > '" +
                                 file + "' 2>/dev/null"},
                            &out);
  EXPECT_EQ(rc, 0) << out;
  return readFile(file);
}

Folded foldPerfScript(const std::string& text, FoldBy by) {
  static const std::regex frame(R"(^\s*([0-9a-f]+) (.*) \((.*)\)$)");
  Folded out;
  std::vector<std::string> frames;  // leaf first
  bool in_sample = false;
  auto flush = [&] {
    if (!in_sample) return;
    std::string stack;
    for (auto it = frames.rbegin(); it != frames.rend(); ++it) stack += (stack.empty() ? "" : ";") + *it;
    ++out[stack];
    frames.clear();
    in_sample = false;
  };
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) {
      flush();
      continue;
    }
    if (line[0] != ' ' && line[0] != '\t') {
      flush();
      in_sample = true;
      continue;
    }
    std::smatch m;
    if (!std::regex_match(line, m, frame)) {
      ADD_FAILURE() << "unexpected perf script line: " << line;
      continue;
    }
    const std::string addr = m[1], sym = m[2], dso = m[3];
    const bool kernel = dso.rfind("[kernel", 0) == 0;
    const std::string name = std::regex_replace(sym, std::regex(R"(\+0x[0-9a-f]+$)"), "");
    if (by == FoldBy::kAddress)
      frames.push_back(addr);
    else if (kernel)
      frames.push_back(by == FoldBy::kName && sym != "[unknown]" ? name : "[kernel]");
    else if (sym != "[unknown]")
      frames.push_back(name);
  }
  flush();
  return out;
}

Folded foldBatchByAddress(const flat::Batch& b) {
  Folded out;
  for (const flat::Profile& p : b.profiles) {
    if (b.string(p.sample_type.type_strindex) != "samples") continue;
    for (uint32_t row = p.samples.begin; row < p.samples.end(); ++row) {
      std::string stack;
      const auto locations = b.indexList(b.stacks[static_cast<size_t>(b.samples.stack_index[row])].locations);
      for (auto it = locations.rbegin(); it != locations.rend(); ++it) {
        const flat::Location& loc = b.locations[static_cast<size_t>(*it)];
        uint64_t addr = loc.address;
        if (loc.mapping_index > 0) {
          const flat::Mapping& m = b.mappings[static_cast<size_t>(loc.mapping_index)];
          const std::string_view file = b.string(m.filename_strindex);
          // perf script prints raw addresses for the kernel and for maps without a file (perf's
          // anonymous and no-dso maps: JIT code, heap, stack, SysV shared memory).
          const bool raw = file == "[kernel.kallsyms]" || file == "//anon" || file == "[heap]" ||
                           file.starts_with("/dev/zero") || file.starts_with("/anon_hugepage") ||
                           file.starts_with("[stack") || file.starts_with("/SYSV");
          if (!raw) addr = addr - m.memory_start + m.file_offset;
        }
        std::ostringstream hex;
        hex << std::hex << addr;
        stack += (stack.empty() ? "" : ";") + hex.str();
      }
      out[stack] += static_cast<int64_t>(b.samples.values[row].size);
    }
  }
  return out;
}

Folded canonicalNames(const Folded& in, const std::string& binary) {
  std::map<std::string, std::string> by_address;  // address -> first name
  std::map<std::string, std::string> canonical;   // name -> first name at its address
  std::istringstream nm(run({"nm", binary}));
  std::string line;
  std::vector<std::pair<std::string, std::string>> symbols;
  while (std::getline(nm, line)) {
    std::istringstream f(line);
    std::string addr, type, name;
    if (!(f >> addr >> type >> name)) continue;
    symbols.emplace_back(addr, name);
    auto [it, inserted] = by_address.try_emplace(addr, name);
    if (!inserted && name < it->second) it->second = name;
  }
  for (const auto& [addr, name] : symbols) canonical[name] = by_address[addr];
  Folded out;
  for (const auto& [stack, count] : in) {
    std::string renamed, frame;
    std::istringstream s(stack);
    while (std::getline(s, frame, ';')) {
      auto it = canonical.find(frame);
      renamed += (renamed.empty() ? "" : ";") + (it == canonical.end() ? frame : it->second);
    }
    out[renamed] += count;
  }
  return out;
}

}  // namespace proflow::testing
