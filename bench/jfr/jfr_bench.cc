// Parse + convert a JFR file to OTLP (and fold it like a pprof aggregation), N times, and report MB/s.
//   jfr_bench FILE [--iterations N] [--fold SAMPLE_TYPE] [--period-type T] [--stream] [--arena MODE] [--flat] [--floor]
// --flat converts into a flat batch (convertToFlat: what the receivers and `proflow convert` do)
// instead of a protobuf request.
// --floor measures what a JFR -> gzipped pprof conversion cannot go below, next to the conversion
// `proflow convert` runs (convertToFlat + flatToPprofBytes, per-event timestamps kept): decoding the
// profiling events (--parse-only), plus gzip at the level pprof is written with of the very bytes
// the conversion writes. Both are needed whatever the converter in between does.
// --fold prints the folded stacks of one sample type (event counts) instead of timing.
// --arena: where the output request lives: `heap` (default, as `proflow convert`) or `default` (a protobuf
// arena with default options, as the daemon did before the flat batch). They differ mostly in page faults: with
// the heap request glibc trims the freed output back to the kernel (brk) after every iteration, and the
// next conversion faults ~25 MB in again.
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/formats/jfr/chunk_reader.h"
#include "tests/support/flat_request.h"
#include "core/formats/jfr/folded.h"
#include "core/formats/jfr/flat_converter.h"
#include "tests/support/jfr_request.h"
#include "core/compression/compression.h"
#include "core/formats/pprof/flat_to_pprof.h"

namespace {

std::vector<uint8_t> readAll(const char* path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  std::vector<uint8_t> b(static_cast<size_t>(in.tellg()));
  in.seekg(0);
  in.read(reinterpret_cast<char*>(b.data()), static_cast<std::streamsize>(b.size()));
  return b;
}

// The machine may be shared: report CPU time (what one core achieves) next to wall time.
double cpuNow() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// Chunk + pool index + decoding of the profiling events, no conversion; returns the events.
uint64_t parseOnly(const std::vector<uint8_t>& bytes) {
  static constexpr std::string_view kTypes[] = {"jdk.ExecutionSample", "jdk.ObjectAllocationSample",
                                                "jdk.ObjectAllocationInNewTLAB", "jdk.ObjectAllocationOutsideTLAB",
                                                "jdk.JavaMonitorEnter", "jdk.ThreadPark", "jdk.NativeMethodSample"};
  proflow::jfr::ChunkReader reader(bytes);
  proflow::jfr::Chunk chunk;
  uint64_t events = 0;
  while (reader.next(chunk)) {
    chunk.select(kTypes);
    uint64_t pos = 0;
    proflow::jfr::Event e;
    while (chunk.nextEvent(&pos, &e)) ++events;
  }
  return events;
}

// Every pprof the conversion makes of `bytes`, in `encoding`.
std::vector<proflow::pprof::EncodedPprof> toPprof(const std::vector<uint8_t>& bytes,
                                                  proflow::pprof::Encoding encoding) {
  proflow::flat::Batch batch;
  if (auto r = proflow::jfr::convertToFlat(bytes, {}, &batch); !r.ok)
    std::fprintf(stderr, "error: %s\n", r.error.toString().c_str());
  std::vector<proflow::pprof::EncodedPprof> out;
  if (auto st = proflow::pprof::flatToPprofBytes(batch, &out, {}, encoding); !st.isOk())
    std::fprintf(stderr, "error: %s\n", st.message().c_str());
  return out;
}

int floorReport(const std::vector<uint8_t>& bytes, int iterations) {
  size_t raw_bytes = 0, gzip_bytes = 0;
  const auto raw = toPprof(bytes, proflow::pprof::Encoding::kRaw);
  for (const auto& p : raw) raw_bytes += p.data.size();
  double parse = 1e100, gzip = 1e100, convert = 1e100;
  std::string compressed;
  for (int it = 0; it < iterations; ++it) {
    double c0 = cpuNow();
    const uint64_t events = parseOnly(bytes);
    parse = std::min(parse, cpuNow() - c0);
    c0 = cpuNow();
    gzip_bytes = 0;
    for (const auto& p : raw) {
      compressed.clear();
      if (auto st = proflow::compression::compress(proflow::compression::Codec::kGzip, p.data, compressed,
                                                   proflow::pprof::kDefaultGzipLevel);
          !st.isOk())
        std::fprintf(stderr, "error: %s\n", st.message().c_str());
      gzip_bytes += compressed.size();
    }
    gzip = std::min(gzip, cpuNow() - c0);
    c0 = cpuNow();
    const auto converted = toPprof(bytes, proflow::pprof::Encoding::kGzip);
    convert = std::min(convert, cpuNow() - c0);
    if (it == 0)
      std::printf("%zu bytes of JFR, %llu events -> %zu pprof files, %zu bytes raw, %zu gzipped\n", bytes.size(),
                  static_cast<unsigned long long>(events), converted.size(), raw_bytes, gzip_bytes);
  }
  std::printf("best cpu: decode events %.1f ms + gzip the output %.1f ms = floor %.1f ms; conversion %.1f ms (%.2fx "
              "the floor)\n",
              parse * 1e3, gzip * 1e3, (parse + gzip) * 1e3, convert * 1e3, convert / (parse + gzip));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s FILE [--iterations N] [--fold TYPE] [--period-type T] [--stream] [--flat] [--floor]\n",
                 argv[0]);
    return 2;
  }
  int iterations = 5;
  std::string fold, period_type, arena_mode = "heap";
  bool stream = false, parse_only = false, flat = false, floor = false;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--iterations") && i + 1 < argc) iterations = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--fold") && i + 1 < argc) fold = argv[++i];
    else if (!std::strcmp(argv[i], "--period-type") && i + 1 < argc) period_type = argv[++i];
    else if (!std::strcmp(argv[i], "--arena") && i + 1 < argc) arena_mode = argv[++i];
    else if (!std::strcmp(argv[i], "--stream")) stream = true;
    else if (!std::strcmp(argv[i], "--parse-only")) parse_only = true;
    else if (!std::strcmp(argv[i], "--flat")) flat = true;
    else if (!std::strcmp(argv[i], "--floor")) floor = true;
  }
  std::vector<uint8_t> bytes;
  if (!stream || parse_only || floor || !fold.empty()) bytes = readAll(argv[1]);
  if (floor) return floorReport(bytes, iterations);
  if (!fold.empty()) {
    proflow::flat::Batch batch;
    auto r = proflow::jfr::convertToFlat(bytes, {}, &batch);
    proflow::jfr::FoldOptions o{fold, period_type, /*count_events=*/true, /*with_lines=*/false};
    std::fputs(proflow::jfr::formatFolded(proflow::jfr::foldStacks(batch, o)).c_str(), stdout);
    if (!r.ok) std::fprintf(stderr, "error: %s\n", r.error.toString().c_str());
    return r.ok ? 0 : 1;
  }
  double best = 1e100, best_cpu = 1e100;
  uint64_t events = 0, size = 0, folded_stacks = 0;
  for (int it = 0; it < iterations; ++it) {
    auto t0 = std::chrono::steady_clock::now();
    double c0 = cpuNow();
    std::optional<google::protobuf::Arena> arena;
    if (arena_mode == "default") arena.emplace();
    std::unique_ptr<proflow::otlp::Request> heap_req;
    if (!arena) heap_req = std::make_unique<proflow::otlp::Request>();
    proflow::otlp::Request& req =
        arena ? *google::protobuf::Arena::CreateMessage<proflow::otlp::Request>(&*arena) : *heap_req;
    proflow::jfr::ConvertResult r;
    if (parse_only) {
      r.events = parseOnly(bytes);
      size = bytes.size();
    } else if (flat) {  // the receivers' and `proflow convert`'s output: a flat batch
      proflow::flat::Batch batch;
      r = proflow::jfr::convertToFlat(bytes, {}, &batch);
      size = bytes.size();
      folded_stacks = proflow::jfr::foldStacks(batch, {"cpu", {}, true, false}).size();
    } else if (stream) {
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
    // (The request is folded through its flat form: folding reads the flat batch only.)
    if (!flat) {
      proflow::flat::Batch folded;
      if (!proflow::flat::fromRequest(req, &folded).isOk()) std::fprintf(stderr, "error: request does not convert\n");
      folded_stacks = proflow::jfr::foldStacks(folded, {"cpu", {}, true, false}).size();
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    best = std::min(best, s);
    best_cpu = std::min(best_cpu, cpuNow() - c0);
    events = r.events;
    if (!r.ok) std::fprintf(stderr, "error: %s\n", r.error.toString().c_str());
  }
  std::printf("proflow: %llu bytes, %llu events, %llu cpu stacks, best wall %.4f s = %.1f MB/s, best cpu %.4f s = %.1f MB/s\n",
              static_cast<unsigned long long>(size), static_cast<unsigned long long>(events),
              static_cast<unsigned long long>(folded_stacks), best, size / best / 1e6, best_cpu, size / best_cpu / 1e6);
  return 0;
}
