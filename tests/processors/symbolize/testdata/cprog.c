/* C part of the symbolize tests: plain C names, a static inline helper. */
#include <stdio.h>
#include <stdlib.h>

static inline unsigned step(unsigned x) { return x * 1103515245u + 12345u; }

__attribute__((noinline)) unsigned churn(unsigned seed, int n) {
  for (int i = 0; i < n; ++i) seed = step(seed) ^ (seed >> 3);
  return seed;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1000;
  printf("%u\n", churn(7, n));
  return 0;
}
