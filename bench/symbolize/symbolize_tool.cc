// Symbolizes ELF virtual addresses of one binary with the proflow symbolizer and prints them the way
// `llvm-symbolizer --obj=BIN` does (function, then file:line:column per frame, innermost first, a
// blank line after each address), so answers can be diffed; times cold and warm passes.
//
//   symbolize_tool --obj BIN [--debug-dir DIR]... [--warm-passes N] [--quiet] ADDRESS_FILE
//
// ADDRESS_FILE holds one hex address per line. Timings go to stderr.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "processors/symbolize/symbolizer.h"

namespace sym = proflow::symbolize;

namespace {

void print(const sym::FramesPtr& frames, std::string& out) {
  if (!frames || frames->empty()) {
    out += "??\n??:0:0\n\n";
    return;
  }
  for (const auto& f : *frames) {
    out += f.function.empty() ? "??" : f.function;
    out += "\n" + (f.file.empty() ? std::string("??") : f.file) + ":" + std::to_string(f.line) + ":" +
           std::to_string(f.column) + "\n";
  }
  out += "\n";
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  sym::SymbolizerOptions opts;
  opts.trust_mapping_paths = true;
  std::string obj, address_file;
  int warm_passes = 1;
  bool quiet = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--obj" && i + 1 < argc) obj = argv[++i];
    else if (a == "--debug-dir" && i + 1 < argc) opts.debug_dirs.push_back(argv[++i]);
    else if (a == "--warm-passes" && i + 1 < argc) warm_passes = std::atoi(argv[++i]);
    else if (a == "--quiet") quiet = true;
    else address_file = a;
  }
  if (obj.empty() || address_file.empty()) {
    std::cerr << "usage: symbolize_tool --obj BIN [--debug-dir DIR]... [--warm-passes N] [--quiet] ADDRESS_FILE\n";
    return 2;
  }
  std::vector<uint64_t> addresses;
  std::ifstream in(address_file);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) addresses.push_back(std::stoull(line, nullptr, 16));

  // Like the processor with a batch: the binary is looked up (cache) once per pass, then every
  // address is symbolized in it.
  const auto t0 = std::chrono::steady_clock::now();
  sym::Symbolizer s(opts);
  sym::BinaryRef ref;
  ref.path = std::filesystem::absolute(obj).string();
  std::string out;
  auto module = s.module(ref).module;
  if (!module) {
    std::cerr << "no symbols for " << obj << "\n";
    return 1;
  }
  for (uint64_t a : addresses) print(sym::Symbolizer::symbolize(*module, a, sym::AddressKind::kElfVirtual, {}), out);
  const double cold = secondsSince(t0);
  const auto t1 = std::chrono::steady_clock::now();
  size_t sink = 0;
  for (int p = 0; p < warm_passes; ++p) {
    auto m = s.module(ref).module;
    for (uint64_t a : addresses) sink += sym::Symbolizer::symbolize(*m, a, sym::AddressKind::kElfVirtual, {})->size();
  }
  const double warm = secondsSince(t1) / std::max(1, warm_passes);
  if (!quiet) std::fwrite(out.data(), 1, out.size(), stdout);
  std::fprintf(stderr, "addresses=%zu cold_s=%.6f warm_s=%.6f frames=%zu\n", addresses.size(), cold, warm,
               sink / std::max(1, warm_passes));
  return 0;
}
