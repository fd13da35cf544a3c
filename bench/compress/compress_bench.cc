// compress_bench FILE...: converts each pprof (.pb / .pb.gz) or JFR file to an OTLP request, runs the
// compress processor's compaction (lossless, then lossless + lossy) and prints serialized bytes and
// zstd-compressed bytes before and after. With several files it also measures them merged into one
// request (what a batch processor hands an exporter).
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/compression/compression.h"
#include "tests/support/flat_request.h"
#include "tests/support/jfr_request.h"
#include "tests/support/pprof_request.h"
#include "tests/support/request_merger.h"
#include "processors/compress/compactor.h"

namespace pc = proflow::processors::compress;

namespace {

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool load(const std::string& path, proflow::otlp::Request* out) {
  std::string data = readFile(path);
  if (data.rfind("FLR", 0) == 0) {
    auto r = proflow::jfr::convertToOtlp(
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(data.data()), data.size()), {}, out);
    return r.ok;
  }
  return proflow::pprof::pprofBytesToOtlp(data, {}, out).isOk();
}

size_t zstdSize(const proflow::otlp::Request& r) {
  std::string raw = r.SerializeAsString(), z;
  if (!proflow::compression::compress(proflow::compression::Codec::kZstd, raw, z).isOk()) return 0;
  return z.size();
}

void report(const std::string& name, const proflow::otlp::Request& in) {
  struct Variant {
    const char* label;
    pc::CompressConfig config;
  };
  pc::CompressConfig lossy;
  lossy.max_stack_depth = 64;
  lossy.min_fraction = 0.001;
  pc::CompressConfig aggressive;
  aggressive.max_stack_depth = 32;
  aggressive.min_fraction = 0.01;
  for (const auto& v : {Variant{"lossless", {}}, Variant{"lossy(depth64,min0.1%)", lossy},
                        Variant{"lossy(depth32,min1%)", aggressive}}) {
    proflow::flat::Batch batch;
    if (!proflow::flat::fromRequest(in, &batch).isOk()) return;
    auto t0 = std::chrono::steady_clock::now();
    pc::CompactStats s = pc::compactBatch(batch, v.config);
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    proflow::otlp::Request r;
    if (!proflow::flat::toRequest(batch, &r).isOk()) return;
    size_t zb = zstdSize(in), za = zstdSize(r);
    std::printf("%-28s %-24s raw %9zu -> %9zu (%5.1f%%)  zstd %8zu -> %8zu (%5.1f%%)  merged %llu zero %llu  %.1f ms\n",
                name.c_str(), v.label, static_cast<size_t>(s.bytes_before), static_cast<size_t>(s.bytes_after),
                100.0 * static_cast<double>(s.bytes_after) / static_cast<double>(s.bytes_before), zb, za,
                100.0 * static_cast<double>(za) / static_cast<double>(zb),
                static_cast<unsigned long long>(s.samples_merged), static_cast<unsigned long long>(s.zero_dropped), ms);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<proflow::otlp::Request> all;
  for (int i = 1; i < argc; ++i) {
    proflow::otlp::Request r;
    if (!load(argv[i], &r)) {
      std::fprintf(stderr, "cannot convert %s\n", argv[i]);
      return 1;
    }
    std::string name = argv[i];
    report(name.substr(name.find_last_of('/') + 1), r);
    all.push_back(std::move(r));
  }
  if (all.size() > 1) {
    // One request holding every input, interned as the batch processor merges them.
    proflow::otlp::Request merged;
    proflow::RequestMerger m(&merged);
    for (const auto& r : all) m.append(r);
    report("(all, merged request)", merged);
  }
  return 0;
}
