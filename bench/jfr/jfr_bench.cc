// Parse + convert a JFR file to OTLP (and fold it like a pprof aggregation), N times, and report MB/s.
//   jfr_bench FILE [--iterations N] [--fold SAMPLE_TYPE] [--period-type T] [--stream]
// --fold prints the folded stacks of one sample type (event counts) instead of timing.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "core/formats/jfr/folded.h"
#include "core/formats/jfr/otlp_converter.h"

namespace {

std::vector<uint8_t> readAll(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [--iterations N] [--fold TYPE] [--period-type T] [--stream]\n", argv[0]);
    return 2;
  }
  int iterations = 5;
  std::string fold, period_type;
  bool stream = false;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--iterations") && i + 1 < argc) iterations = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--fold") && i + 1 < argc) fold = argv[++i];
    else if (!std::strcmp(argv[i], "--period-type") && i + 1 < argc) period_type = argv[++i];
    else if (!std::strcmp(argv[i], "--stream")) stream = true;
  }
  std::vector<uint8_t> bytes;
  if (!stream || !fold.empty()) bytes = readAll(argv[1]);
  if (!fold.empty()) {
    proflow::otlp::Request req;
    auto r = proflow::jfr::convertToOtlp(bytes, {}, &req);
    proflow::jfr::FoldOptions o{fold, period_type, /*count_events=*/true, /*with_lines=*/false};
    std::fputs(proflow::jfr::formatFolded(proflow::jfr::foldStacks(req, o)).c_str(), stdout);
    if (!r.ok) std::fprintf(stderr, "error: %s\n", r.error.toString().c_str());
    return r.ok ? 0 : 1;
  }
  double best = 1e100;
  uint64_t events = 0, size = 0, folded_stacks = 0;
  for (int it = 0; it < iterations; ++it) {
    auto t0 = std::chrono::steady_clock::now();
    proflow::otlp::Request req;
    proflow::jfr::ConvertResult r;
    if (stream) {
      std::ifstream in(argv[1], std::ios::binary);
      r = proflow::jfr::convertToOtlp(in, {}, &req);
      in.clear();
      in.seekg(0, std::ios::end);
      size = static_cast<uint64_t>(in.tellg());
    } else {
      r = proflow::jfr::convertToOtlp(bytes, {}, &req);
      size = bytes.size();
    }
    // The pprof-like aggregation the JDK side also does: fold each converted profile's stacks.
    folded_stacks = proflow::jfr::foldStacks(req, {"cpu", {}, true, false}).size();
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, s);
    events = r.events;
    if (!r.ok) std::fprintf(stderr, "error: %s\n", r.error.toString().c_str());
  }
  std::printf("proflow: %llu bytes, %llu events, %llu cpu stacks, best %.4f s, %.1f MB/s\n",
              static_cast<unsigned long long>(size), static_cast<unsigned long long>(events),
              static_cast<unsigned long long>(folded_stacks), best, size / best / 1e6);
  return 0;
}
