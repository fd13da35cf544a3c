// Test workload for the symbolize tests: templates, inlined helpers, a namespace, class methods and
// calls into a shared library, built with g++ -g -O2 at test time.
#include <cstdio>
#include <cstdlib>

#include "shape.h"

namespace work {

template <class T>
struct Accumulator {
  T total{};
  __attribute__((always_inline)) inline void add(T v) { total += v * v + static_cast<T>(v > 3); }
};

static inline __attribute__((always_inline)) long mix(long x) {
  x ^= x >> 7;
  x *= 0x9e3779b97f4a7c15L;
  return x ^ (x >> 11);
}

template <class T>
__attribute__((noinline)) T sumSquares(int n) {
  Accumulator<T> acc;
  for (int i = 0; i < n; ++i) acc.add(static_cast<T>(mix(i) & 1023));
  return acc.total;
}

class Engine {
 public:
  __attribute__((noinline)) long run(int rounds);

 private:
  long state_ = 1;
};

long Engine::run(int rounds) {
  for (int r = 0; r < rounds; ++r) state_ += sumSquares<long>(1000 + r % 7) + mix(state_);
  return state_;
}

}  // namespace work

extern "C" __attribute__((noinline)) double c_linkage_entry(int n) { return work::sumSquares<double>(n); }

int main(int argc, char** argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 100;
  work::Engine e;
  long a = e.run(rounds);
  double b = c_linkage_entry(rounds);
  double c = shape::area_sum(rounds);
  std::printf("%ld %f %f\n", a, b, c);
  return 0;
}
