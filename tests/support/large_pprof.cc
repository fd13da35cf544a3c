#include "tests/support/large_pprof.h"

#include "core/formats/pprof/pprof_codec.h"

namespace proflow::testing {

std::string cpuShapedPprof(size_t target_bytes) {
  ::proflow::pprof::Profile p;
  p.add_string_table("");
  p.add_string_table("samples");
  p.add_string_table("count");
  p.add_string_table("cpu");
  p.add_string_table("nanoseconds");
  for (int t = 0; t < 2; ++t) {
    auto* vt = p.add_sample_type();
    vt->set_type(t == 0 ? 1 : 3);
    vt->set_unit(t == 0 ? 2 : 4);
  }
  const int functions = 5000;
  for (int i = 1; i <= functions; ++i) {
    p.add_string_table("pkg/module" + std::to_string(i % 97) + ".function" + std::to_string(i));
    auto* f = p.add_function();
    f->set_id(static_cast<uint64_t>(i));
    f->set_name(4 + i);
    auto* l = p.add_location();
    l->set_id(static_cast<uint64_t>(i));
    auto* line = l->add_line();
    line->set_function_id(static_cast<uint64_t>(i));
    line->set_line(i % 300);
  }
  uint64_t seed = 1;
  while (p.ByteSizeLong() < target_bytes) {
    for (int n = 0; n < 1000; ++n) {
      auto* s = p.add_sample();
      for (int d = 0; d < 32; ++d) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        s->add_location_id(1 + (seed >> 33) % functions);
      }
      s->add_value(1);
      s->add_value(10'000'000);
    }
  }
  return p.SerializeAsString();
}

}  // namespace proflow::testing
