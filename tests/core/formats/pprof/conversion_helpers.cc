// Shared by the conversion tests: a profile using every pprof feature and a canonical description.
#include "tests/core/formats/pprof/conversion_helpers.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <vector>

#include "tests/support/dictionary_builder.h"
#include "core/formats/pprof/pprof_ids.h"
#include "tests/core/formats/pprof/test_profiles.h"

namespace proflow::pprof::testdata {

void addLabel(Profile* p, perftools::profiles::Sample* s, std::string_view key, std::string_view str) {
  auto* l = s->add_label();
  l->set_key(addString(p, key));
  l->set_str(addString(p, str));
}
void addNum(Profile* p, perftools::profiles::Sample* s, std::string_view key, int64_t v, std::string_view unit) {
  auto* l = s->add_label();
  l->set_key(addString(p, key));
  l->set_num(v);
  if (!unit.empty()) l->set_num_unit(addString(p, unit));
}

// Every feature at once.
Profile richProfile() {
  Profile p = testdata::smallProfile();
  p.set_default_sample_type(addString(&p, "cpu"));
  p.add_comment(addString(&p, "first comment"));
  p.add_comment(addString(&p, "second comment"));
  p.set_drop_frames(addString(&p, "runtime\\..*"));
  p.set_keep_frames(addString(&p, "runtime\\.main"));
  p.set_doc_url(addString(&p, "https://example.com/doc"));
  p.set_time_nanos(1700000000123456789);
  p.set_duration_nanos(10000000000);
  p.mutable_period_type()->set_type(addString(&p, "cpu"));
  p.mutable_period_type()->set_unit(addString(&p, "nanoseconds"));
  p.set_period(10000000);
  auto* m0 = p.mutable_mapping(0);
  m0->set_build_id(addString(&p, "7e9a1c2f33c4b1d0"));
  m0->set_has_functions(true);
  m0->set_has_line_numbers(true);
  m0->set_file_offset(0x1000);
  auto* m = p.add_mapping();
  m->set_id(7);
  m->set_memory_start(0x7f0000);
  m->set_memory_limit(0x7f8000);
  m->set_filename(addString(&p, "/lib/go.so"));
  m->set_build_id(addString(&p, "aaa/bbb/ccc/ddd"));
  m->set_has_filenames(true);
  m->set_has_inline_frames(true);
  auto* vdso = p.add_mapping();  // listed by the producer, used by no location
  vdso->set_id(9);
  vdso->set_memory_start(0x7fff0000);
  vdso->set_memory_limit(0x7fff2000);
  vdso->set_filename(addString(&p, "[vdso]"));
  vdso->set_build_id(addString(&p, "0123abcd"));
  vdso->set_has_functions(true);
  auto* f = p.add_function();
  f->set_id(3);
  f->set_name(addString(&p, "inlined"));
  f->set_system_name(addString(&p, "_Z7inlinedv"));
  f->set_filename(addString(&p, "lib.cc"));
  f->set_start_line(40);
  auto* l = p.add_location();
  l->set_id(3);
  l->set_mapping_id(7);
  l->set_address(0x7f0010);
  l->set_is_folded(true);
  auto* ln = l->add_line();
  ln->set_function_id(3);
  ln->set_line(42);
  ln->set_column(7);
  ln = l->add_line();
  ln->set_function_id(2);
  ln->set_line(12);
  auto* s0 = p.mutable_sample(0);
  s0->add_location_id(3);
  addLabel(&p, s0, "span_id", "00000000000000ab");
  addLabel(&p, s0, "trace_id", "0000000000000000000000000000cdef");
  addLabel(&p, s0, "span id", "777");  // Datadog's key loses to span_id whatever the order
  addNum(&p, s0, "bytes", 512, "");
  addNum(&p, s0, "alloc", 3, "kilobytes");
  auto* s1 = p.mutable_sample(1);
  addNum(&p, s1, "span id", 1234, "");  // Datadog, numeric
  addLabel(&p, s1, "local root span id", "99");
  addLabel(&p, s1, "trace endpoint", "GET /x");
  addNum(&p, s1, kTimestampLabel, 1700000000500000000, "nanoseconds");
  auto* s2 = p.add_sample();  // a third sample with a repeated key and no location
  s2->add_value(0);
  s2->add_value(0);
  addLabel(&p, s2, "k", "a");
  addLabel(&p, s2, "k", "b");
  return p;
}

// Canonical text of a pprof with ids resolved, in sample order; covers every field.
std::string describe(const Profile& p) {
  auto S = [&](int64_t i) { return p.string_table(static_cast<int>(i)); };
  std::map<uint64_t, std::string> maps, funcs, locs;
  for (const auto& m : p.mapping())
    maps[m.id()] = std::to_string(m.memory_start()) + "-" + std::to_string(m.memory_limit()) + "@" +
                   std::to_string(m.file_offset()) + " " + S(m.filename()) + " bid=" + S(m.build_id()) + " " +
                   std::to_string(m.has_functions()) + std::to_string(m.has_filenames()) +
                   std::to_string(m.has_line_numbers()) + std::to_string(m.has_inline_frames());
  for (const auto& f : p.function())
    funcs[f.id()] = S(f.name()) + "|" + S(f.system_name()) + "|" + S(f.filename()) + "|" + std::to_string(f.start_line());
  for (const auto& l : p.location()) {
    std::string d = std::to_string(l.address()) + " m=" + (l.mapping_id() ? maps[l.mapping_id()] : "-") +
                    (l.is_folded() ? " folded" : "");
    for (const auto& ln : l.line())
      d += " [" + (ln.function_id() ? funcs[ln.function_id()] : "-") + ":" + std::to_string(ln.line()) + ":" +
           std::to_string(ln.column()) + "]";
    locs[l.id()] = d;
  }
  std::ostringstream o;
  for (const auto& st : p.sample_type()) o << "type " << S(st.type()) << "/" << S(st.unit()) << "\n";
  o << "default " << S(p.default_sample_type()) << "\nperiod " << S(p.period_type().type()) << "/"
    << S(p.period_type().unit()) << " " << p.period() << "\ntime " << p.time_nanos() << " " << p.duration_nanos()
    << "\ndrop " << S(p.drop_frames()) << "\nkeep " << S(p.keep_frames()) << "\ndoc " << S(p.doc_url()) << "\n";
  for (int64_t c : p.comment()) o << "comment " << S(c) << "\n";
  for (const auto& s : p.sample()) {
    o << "sample";
    for (int64_t v : s.value()) o << " " << v;
    o << "\n";
    for (uint64_t id : s.location_id()) o << "  @ " << locs[id] << "\n";
    for (const auto& l : s.label())
      o << "  label " << S(l.key()) << "=" << (l.str() ? "s:" + S(l.str()) : "n:" + std::to_string(l.num())) << " "
        << S(l.num_unit()) << "\n";
  }
  std::vector<std::string> ms;
  for (const auto& [id, d] : maps) ms.push_back(d);
  std::sort(ms.begin(), ms.end());
  for (const auto& m : ms) o << "mapping " << m << "\n";
  return o.str();
}

std::string attrKey(const otlp::Dictionary& d, int32_t i) {
  return std::string(dictString(d, d.attribute_table(i).key_strindex()));
}
const otlp::KeyValueAndUnit* findAttr(const otlp::Dictionary& d, const google::protobuf::RepeatedField<int32_t>& idx,
                                      std::string_view key) {
  for (int32_t i : idx)
    if (attrKey(d, i) == key) return &d.attribute_table(i);
  return nullptr;
}

}  // namespace proflow::pprof::testdata
