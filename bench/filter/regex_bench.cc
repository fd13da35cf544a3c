// Full-match throughput of std::regex and RE2 on realistic frame names with drop_frames-style
// patterns. Run: build/bench/regex_bench
#include <benchmark/benchmark.h>
#include <re2/re2.h>

#include <regex>
#include <string>
#include <vector>

namespace {

std::vector<std::string> frameNames() {
  static const char* kParts[] = {"runtime.mallocgc", "main.(*Server).handleRequest", "net/http.(*conn).serve",
                                 "encoding/json.(*decodeState).object", "java.util.HashMap.get",
                                 "std::vector<int, std::allocator<int> >::push_back", "runtime.gcBgMarkWorker",
                                 "github.com/acme/svc/internal/store.(*DB).Query", "__memcpy_avx_unaligned_erms"};
  std::vector<std::string> out;
  for (int i = 0; i < 1000; ++i) out.push_back(std::string(kParts[i % 9]) + (i % 3 ? "" : ".func" + std::to_string(i)));
  return out;
}

const char* kPattern = "runtime\\..*|.*mallocgc|java\\.util\\..*";

void BM_StdRegex(benchmark::State& state) {
  auto names = frameNames();
  std::regex re(kPattern, std::regex::ECMAScript | std::regex::optimize);
  for (auto _ : state)
    for (const auto& n : names) benchmark::DoNotOptimize(std::regex_match(n, re));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(names.size()));
}
BENCHMARK(BM_StdRegex);

void BM_Re2(benchmark::State& state) {
  auto names = frameNames();
  re2::RE2 re(kPattern);
  for (auto _ : state)
    for (const auto& n : names) benchmark::DoNotOptimize(re2::RE2::FullMatch(n, re));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(names.size()));
}
BENCHMARK(BM_Re2);

}  // namespace
