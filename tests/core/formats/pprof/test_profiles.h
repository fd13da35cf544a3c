// Small hand-built pprof profiles for the unit tests.
#pragma once

#include <string>
#include <string_view>

#include "core/formats/pprof/pprof_codec.h"

namespace proflow::pprof::testdata {

// Appends `s` to the string table (no dedup needed for tests) and returns its index.
inline int64_t addString(Profile* p, std::string_view s) {
  if (p->string_table_size() == 0) p->add_string_table("");
  if (s.empty()) return 0;
  p->add_string_table(std::string(s));
  return p->string_table_size() - 1;
}

// Two sample types, one mapping, two functions, two locations, two samples. Valid.
inline Profile smallProfile() {
  Profile p;
  addString(&p, "");
  auto* st = p.add_sample_type();
  st->set_type(addString(&p, "samples"));
  st->set_unit(addString(&p, "count"));
  st = p.add_sample_type();
  st->set_type(addString(&p, "cpu"));
  st->set_unit(addString(&p, "nanoseconds"));
  auto* m = p.add_mapping();
  m->set_id(1);
  m->set_memory_start(0x400000);
  m->set_memory_limit(0x500000);
  m->set_filename(addString(&p, "/bin/app"));
  for (int i = 1; i <= 2; ++i) {
    auto* f = p.add_function();
    f->set_id(i);
    f->set_name(addString(&p, "fn" + std::to_string(i)));
    auto* l = p.add_location();
    l->set_id(i);
    l->set_mapping_id(1);
    l->set_address(0x400000 + 16 * i);
    l->add_line()->set_function_id(i);
  }
  for (int i = 0; i < 2; ++i) {
    auto* s = p.add_sample();
    s->add_location_id(1);
    s->add_location_id(2);
    s->add_value(1 + i);
    s->add_value(10000000 * (1 + i));
  }
  return p;
}

}  // namespace proflow::pprof::testdata
