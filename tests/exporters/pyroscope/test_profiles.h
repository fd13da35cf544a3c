// Small hand-built pprof profiles (Go's layouts) and their OTLP form, for the exporter tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/support/dictionary_builder.h"
#include "core/formats/pprof/pprof_codec.h"
#include "tests/support/pprof_request.h"

namespace proflow::exporters::pyroscope::testing {

using Attrs = std::vector<std::pair<std::string, std::string>>;

class PprofMaker {
 public:
  explicit PprofMaker(pprof::Profile* p) : p_(p) { p_->add_string_table(""); }
  int64_t str(const std::string& s) {
    p_->add_string_table(s);
    return p_->string_table_size() - 1;
  }
  void sampleType(const std::string& type, const std::string& unit) {
    auto* st = p_->add_sample_type();
    st->set_type(str(type));
    st->set_unit(str(unit));
  }
  // A stack of function names, leaf first.
  void sample(const std::vector<std::string>& frames, const std::vector<int64_t>& values) {
    auto* s = p_->add_sample();
    for (const auto& f : frames) s->add_location_id(location(f));
    for (int64_t v : values) s->add_value(v);
  }

 private:
  uint64_t location(const std::string& name) {
    for (const auto& f : p_->function())
      if (p_->string_table(static_cast<int>(f.name())) == name) return f.id();
    const uint64_t id = p_->function_size() + 1;
    auto* f = p_->add_function();
    f->set_id(id);
    f->set_name(str(name));
    auto* l = p_->add_location();
    l->set_id(id);
    l->add_line()->set_function_id(id);
    return id;
  }
  pprof::Profile* p_;
};

inline pprof::Profile cpuPprof() {
  pprof::Profile p;
  PprofMaker m(&p);
  m.sampleType("samples", "count");
  m.sampleType("cpu", "nanoseconds");
  m.sample({"compute", "work", "main"}, {12, 120'000'000});
  m.sample({"work", "main"}, {3, 30'000'000});
  p.mutable_period_type()->set_type(m.str("cpu"));
  p.mutable_period_type()->set_unit(p.sample_type(1).unit());
  p.set_period(10'000'000);
  p.set_time_nanos(1'795'987'030'000'000'000);
  p.set_duration_nanos(10'000'000'000);
  return p;
}

inline pprof::Profile heapPprof() {
  pprof::Profile p;
  PprofMaker m(&p);
  for (auto [t, u] : {std::pair{"alloc_objects", "count"}, {"alloc_space", "bytes"}, {"inuse_objects", "count"},
                      {"inuse_space", "bytes"}})
    m.sampleType(t, u);
  m.sample({"alloc", "main"}, {1, 512, 1, 512});
  p.set_time_nanos(1'795'987'030'000'000'000);
  return p;
}

inline void appendOtlp(otlp::Request* out, const pprof::Profile& p, const Attrs& resource) {
  pprof::PprofToOtlpOptions o;
  o.resource_attributes = resource;
  ASSERT_TRUE(pprof::pprofToOtlp(p, o, out).isOk());
}

inline otlp::Request toOtlp(const pprof::Profile& p, const Attrs& resource) {
  otlp::Request r;
  appendOtlp(&r, p, resource);
  return r;
}

// Adds a string (or "true" -> bool) attribute to every profile of the request.
inline void addProfileAttribute(otlp::Request* r, const std::string& key, const std::string& value) {
  DictionaryBuilder dict(r->mutable_dictionary());
  const int32_t idx = value == "true" ? dict.boolAttribute(key, true) : dict.stringAttribute(key, value);
  for (auto& rp : *r->mutable_resource_profiles())
    for (auto& sp : *rp.mutable_scope_profiles())
      for (auto& p : *sp.mutable_profiles()) p.add_attribute_indices(idx);
}

}  // namespace proflow::exporters::pyroscope::testing
