#include "tests/processors/symbolize/test_programs.h"

#include <sys/wait.h>

#include <cstdio>
#include <map>
#include <sstream>

#include "processors/symbolize/binary_index.h"
#include "tests/support/go_programs.h"

namespace proflow::symbolize::testing {

CommandResult run(const std::string& command) {
  CommandResult r;
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return r;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

std::string missingTool(const std::string& tool) {
  if (run("command -v " + tool).status == 0) return {};
  static const std::map<std::string, std::string> packages = {
      {"g++", "g++"}, {"gcc", "gcc"}, {"llvm-symbolizer-14", "llvm-14"}, {"debuginfod", "debuginfod"},
      {"objcopy", "binutils"}, {"objdump", "binutils"}, {"nm", "binutils"}, {"readelf", "binutils"},
      {"curl", "curl"}, {"strip", "binutils"}, {"go", "golang-go"}};
  auto it = packages.find(tool);
  return tool + " not found on PATH: install the Debian package '" +
         (it != packages.end() ? it->second : tool) + "' (scripts/install-deps.sh test)";
}

Programs buildPrograms(const std::string& dir) {
  Programs p;
  p.dir = dir;
  const std::string src = std::string(PROFLOW_SOURCE_DIR) + "/tests/processors/symbolize/testdata";
  p.shlib = dir + "/libshape.so";
  p.app = dir + "/app";
  p.cprog = dir + "/cprog";
  const std::vector<std::string> commands = {
      "g++ -g -O2 -fPIC -shared -Wl,--build-id -o " + p.shlib + " " + src + "/shape.cc",
      "g++ -g -O2 -Wl,--build-id -I" + src + " -o " + p.app + " " + src + "/app.cc -L" + dir +
          " -lshape -Wl,-rpath," + dir,
      "gcc -g -O2 -Wl,--build-id -o " + p.cprog + " " + src + "/cprog.c"};
  for (const auto& c : commands) {
    CommandResult r = run(c);
    if (r.status != 0) {
      p.error = c + " failed: " + r.output;
      return p;
    }
  }
  return p;
}

std::string buildGoProgram(const std::string& out, const std::string& ldflags) {
  return proflow::testing::goBuild(std::string(PROFLOW_SOURCE_DIR) + "/tests/processors/symbolize/testdata/goprog", out,
                                   ldflags);
}

std::vector<uint64_t> functionAddresses(const std::string& binary, size_t limit, size_t stride) {
  // Sized function symbols: [start, start + size). Padding between functions is excluded on
  // purpose: llvm-symbolizer and libdw disagree on line-table rows of never-executed padding.
  std::vector<std::pair<uint64_t, uint64_t>> ranges;
  std::istringstream nm(run("nm -S --defined-only " + binary).output);
  for (std::string line; std::getline(nm, line);) {
    std::istringstream ls(line);
    std::string value, size, type, name;
    if (!(ls >> value >> size >> type >> name) || (type != "t" && type != "T" && type != "W")) continue;
    const uint64_t v = std::stoull(value, nullptr, 16), s = std::stoull(size, nullptr, 16);
    if (s > 0) ranges.emplace_back(v, v + s);
  }
  std::vector<uint64_t> out;
  size_t seen = 0;
  std::istringstream dis(run("objdump -d --no-show-raw-insn --section=.text " + binary).output);
  for (std::string line; std::getline(dis, line) && out.size() < limit;) {
    size_t colon = line.find(':');
    if (line.size() < 3 || line[0] != ' ' || colon == std::string::npos) continue;
    uint64_t a = 0;
    try {
      a = std::stoull(line.substr(0, colon), nullptr, 16);
    } catch (...) {
      continue;
    }
    for (const auto& [lo, hi] : ranges)
      if (a >= lo && a < hi) {
        if (seen++ % stride == 0) out.push_back(a);
        break;
      }
  }
  return out;
}

std::vector<Frames> llvmFrames(const std::string& binary, const std::vector<uint64_t>& addresses) {
  std::string args;
  for (uint64_t a : addresses) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " 0x%llx", static_cast<unsigned long long>(a));
    args += buf;
  }
  std::istringstream out(run("llvm-symbolizer-14 --obj=" + binary + args).output);
  std::vector<Frames> result(1);
  std::string fn, loc;
  while (std::getline(out, fn)) {
    if (fn.empty()) {
      result.emplace_back();
      continue;
    }
    if (!std::getline(out, loc)) break;
    Frame f;
    f.function = fn == "??" ? "" : fn;
    // file:line:column; the file itself may contain ':'.
    size_t c2 = loc.rfind(':'), c1 = loc.rfind(':', c2 - 1);
    f.file = loc.substr(0, c1) == "??" ? "" : loc.substr(0, c1);
    f.line = std::stoll(loc.substr(c1 + 1, c2 - c1 - 1));
    f.column = std::stoll(loc.substr(c2 + 1));
    result.back().push_back(f);
  }
  while (!result.empty() && result.back().empty()) result.pop_back();
  // An unknown address prints one all-"??" frame: that means no frames.
  for (auto& fr : result)
    if (fr.size() == 1 && fr[0].function.empty() && fr[0].file.empty()) fr.clear();
  return result;
}

std::string buildIdOf(const std::string& binary) {
  auto id = BinaryIndex::identify(binary, false);
  return id ? id->gnu : "";
}

TextSegment textSegment(const std::string& binary) {
  TextSegment seg;
  std::istringstream in(run("readelf -lW " + binary).output);
  for (std::string line; std::getline(in, line);) {
    std::istringstream ls(line);
    std::string type, off, va, pa, fsz, msz, f1, f2;
    if (!(ls >> type >> off >> va >> pa >> fsz >> msz >> f1) || type != "LOAD") continue;
    std::getline(ls, f2);
    if ((f1 + f2).find('E') == std::string::npos) continue;
    seg.offset = std::stoull(off, nullptr, 16);
    seg.vaddr = std::stoull(va, nullptr, 16);
    seg.memsz = std::stoull(msz, nullptr, 16);
    break;
  }
  return seg;
}

std::string describe(const Frames& frames) {
  std::string s;
  for (const auto& f : frames)
    s += "  " + f.function + " @ " + f.file + ":" + std::to_string(f.line) + ":" + std::to_string(f.column) + "\n";
  return s.empty() ? "  (none)\n" : s;
}

}  // namespace proflow::symbolize::testing
