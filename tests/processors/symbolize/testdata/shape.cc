// Shared library part of the symbolize test workload.
#include "shape.h"

namespace shape {
namespace {

struct Circle {
  double r;
  inline double area() const { return 3.14159 * r * r; }
};

template <int Sides>
inline double polygon(double s) {
  double a = 0;
  for (int i = 0; i < Sides; ++i) a += s * (i + 1);
  return a;
}

}  // namespace

__attribute__((noinline)) double area_sum(int n) {
  double total = 0;
  for (int i = 0; i < n; ++i) {
    Circle c{static_cast<double>(i % 13)};
    total += c.area() + polygon<5>(i * 0.5);
  }
  return total;
}

}  // namespace shape
