// A native workload for the perf tests: a few named functions with fixed hot paths, built with -g
// and frame pointers at test time, stripped, and recorded with `perf record -g`.
//   main -> run_parser -> parse_tokens (about 3 parts of the time)
//   main -> run_parser -> checksum_block (1 part)
//   main -> run_render -> checksum_block (2 parts)
// Usage: perf_workload [scale]; scale 1 runs for about 0.2 s.
#include <cstdint>
#include <cstdlib>

#define NOINLINE __attribute__((noinline))

volatile uint64_t g_sink;

extern "C" NOINLINE uint64_t parse_tokens(uint64_t n) {
  uint64_t x = 1;
  for (uint64_t i = 0; i < n; ++i) x = x * 6364136223846793005ull + (i ^ (x >> 29));
  return x;
}

extern "C" NOINLINE uint64_t checksum_block(uint64_t n) {
  uint64_t a = 1, b = 0;
  for (uint64_t i = 0; i < n; ++i) {
    a = (a + (i & 0xff)) % 65521;
    b = (b + a) % 65521;
  }
  return b << 16 | a;
}

extern "C" NOINLINE uint64_t run_parser(uint64_t n) { return parse_tokens(3 * n) + checksum_block(n / 3); }

extern "C" NOINLINE uint64_t run_render(uint64_t n) { return checksum_block(2 * n / 3); }

int main(int argc, char** argv) {
  const uint64_t scale = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1;
  for (uint64_t round = 0; round < 5 * scale; ++round) {
    g_sink = run_parser(4'000'000);
    g_sink = run_render(4'000'000);
  }
  return 0;
}
