#include "tests/core/flat/test_requests.h"

#include <random>

#include "tests/support/dictionary_builder.h"
#include "tests/support/pprof_request.h"
#include "tests/support/temp_dir.h"

namespace proflow::flat::testing {
namespace {

void setNested(otlp::AnyValue* v, int32_t strindex) {
  auto* arr = v->mutable_array_value();
  arr->add_values()->set_string_value("a");
  arr->add_values()->set_int_value(-7);
  arr->add_values()->set_string_value_strindex(strindex);
  auto* kvl = arr->add_values()->mutable_kvlist_value();
  auto* kv = kvl->add_values();
  kv->set_key("inner");
  kv->mutable_value()->set_double_value(2.5);
  auto* kv2 = kvl->add_values();
  kv2->set_key_strindex(strindex);
  kv2->mutable_value()->mutable_array_value();  // empty array
  arr->add_values();                             // empty AnyValue
}

}  // namespace

otlp::Request everyFieldRequest() {
  otlp::Request r;
  auto* d = r.mutable_dictionary();
  for (const char* s : {"", "cpu", "nanoseconds", "main", "work", "app.go", "_Z4workv", "/bin/app", "thread.name",
                        "worker", "service.name", "svc", "ms", "build.id", "host.name", "samples", "count"})
    d->add_string_table(s);
  d->add_mapping_table();
  auto* m = d->add_mapping_table();
  m->set_memory_start(0x400000);
  m->set_memory_limit(0x800000);
  m->set_file_offset(0x1000);
  m->set_filename_strindex(7);
  m->add_attribute_indices(2);
  d->add_function_table();
  auto* f = d->add_function_table();
  f->set_name_strindex(3);
  f->set_filename_strindex(5);
  f->set_start_line(10);
  f = d->add_function_table();
  f->set_name_strindex(4);
  f->set_system_name_strindex(6);
  f->set_filename_strindex(5);
  f->set_start_line(-3);
  d->add_location_table();
  auto* l = d->add_location_table();
  l->set_mapping_index(1);
  l->set_address(0x401000);
  auto* line = l->add_lines();
  line->set_function_index(2);
  line->set_line(42);
  line->set_column(7);
  line = l->add_lines();
  line->set_function_index(1);
  line->set_line(12);
  l->add_attribute_indices(1);
  l = d->add_location_table();
  l->add_lines()->set_function_index(1);
  auto* link0 = d->add_link_table();
  link0->set_trace_id(std::string(16, '\0'));
  link0->set_span_id(std::string(8, '\0'));
  auto* link = d->add_link_table();
  link->set_trace_id(std::string("0123456789abcdef"));
  link->set_span_id(std::string("\x01\x02\x03\x04\x05\x06\x07\xff", 8));
  d->add_attribute_table();
  auto* a = d->add_attribute_table();
  a->set_key_strindex(8);
  a->mutable_value()->set_string_value_strindex(9);
  a = d->add_attribute_table();
  a->set_key_strindex(13);
  a->mutable_value()->set_bytes_value(std::string("\x00\xfe", 2));
  a = d->add_attribute_table();
  a->set_key_strindex(1);
  a->set_unit_strindex(12);
  a->mutable_value()->set_double_value(1.5);
  a = d->add_attribute_table();
  a->set_key_strindex(14);
  a->mutable_value()->set_bool_value(false);
  a = d->add_attribute_table();
  a->set_key_strindex(14);
  a->mutable_value()->set_int_value(-1);
  a = d->add_attribute_table();
  a->set_key_strindex(3);
  setNested(a->mutable_value(), 4);
  a = d->add_attribute_table();
  a->set_key_strindex(4);
  a->mutable_value();  // present, no member set
  d->add_stack_table();
  auto* st = d->add_stack_table();
  st->add_location_indices(1);
  st->add_location_indices(2);
  st = d->add_stack_table();
  st->add_location_indices(2);

  // A resource with inline attributes of every kind, entity refs and a schema.
  auto* rp = r.add_resource_profiles();
  rp->set_schema_url("https://opentelemetry.io/schemas/1.30.0");
  auto* res = rp->mutable_resource();
  auto* kv = res->add_attributes();
  kv->set_key("service.name");
  kv->mutable_value()->set_string_value("svc");
  kv = res->add_attributes();
  kv->set_key("nested");
  setNested(kv->mutable_value(), 11);
  kv = res->add_attributes();
  kv->set_key("no.value");
  res->set_dropped_attributes_count(3);
  auto* ref = res->add_entity_refs();
  ref->set_schema_url("https://example.com/s");
  ref->set_type("service");
  ref->add_id_keys("service.name");
  ref->add_description_keys("nested");
  auto* sp = rp->add_scope_profiles();
  sp->set_schema_url("https://example.com/scope");
  auto* scope = sp->mutable_scope();
  scope->set_name("proflow.test");
  scope->set_version("1.2.3");
  scope->set_dropped_attributes_count(1);
  kv = scope->add_attributes();
  kv->set_key("pprof.scope.sample_type_order");
  for (int i : {1, 0}) kv->mutable_value()->mutable_array_value()->add_values()->set_int_value(i);
  auto* p = sp->add_profiles();
  p->mutable_sample_type()->set_type_strindex(1);
  p->mutable_sample_type()->set_unit_strindex(2);
  p->mutable_period_type()->set_type_strindex(1);
  p->mutable_period_type()->set_unit_strindex(2);
  p->set_time_unix_nano(1700000000000000000ull);
  p->set_duration_nano(10000000000ull);
  p->set_period(-10000000);
  p->set_profile_id(std::string("\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff", 16));
  p->set_dropped_attributes_count(2);
  p->set_original_payload_format("pprof");
  p->set_original_payload(std::string("\x1f\x8b\x00payload", 10));
  p->add_attribute_indices(3);
  p->add_attribute_indices(7);
  auto* s = p->add_samples();
  s->set_stack_index(1);
  s->add_values(30);
  s->add_values(-5);
  s->add_timestamps_unix_nano(1700000000000000001ull);
  s->add_timestamps_unix_nano(1700000000000000002ull);
  s->add_attribute_indices(1);
  s->add_attribute_indices(6);
  s->set_link_index(1);
  s = p->add_samples();
  s->set_stack_index(2);
  s->add_timestamps_unix_nano(1700000000000000005ull);
  p = sp->add_profiles();  // a second, nearly empty profile
  p->mutable_sample_type();
  p->add_samples()->add_values(1);
  rp->add_scope_profiles();  // an empty scope, no `scope` message

  // A resource with reference-based attributes (v1.10) and one without a `resource` message.
  rp = r.add_resource_profiles();
  kv = rp->mutable_resource()->add_attributes();
  kv->set_key_strindex(10);
  kv->mutable_value()->set_string_value_strindex(11);
  kv = rp->mutable_resource()->add_attributes();
  kv->set_key("host.name");
  kv->set_key_strindex(0);
  kv->mutable_value()->set_string_value_strindex(3);
  sp = rp->add_scope_profiles();
  sp->mutable_scope();  // present, empty
  p = sp->add_profiles();
  p->mutable_sample_type()->set_type_strindex(15);
  p->mutable_sample_type()->set_unit_strindex(16);
  s = p->add_samples();
  s->set_stack_index(2);
  s->add_values(4);
  r.add_resource_profiles()->add_scope_profiles()->add_profiles()->add_samples()->add_values(9);
  return r;
}

otlp::Request agentRequest(int profiles, int samples, uint32_t seed) {
  std::mt19937 rng(seed);
  otlp::Request r;
  DictionaryBuilder dict(r.mutable_dictionary());
  auto* rp = r.add_resource_profiles();
  auto* kv = rp->mutable_resource()->add_attributes();
  kv->set_key("service.name");
  kv->mutable_value()->set_string_value("svc-" + std::to_string(seed % 3));
  auto* sp = rp->add_scope_profiles();
  sp->mutable_scope()->set_name("agent");
  std::vector<int32_t> locations;
  for (int f = 0; f < 200; ++f) {
    const int32_t fn = dict.function("pkg.fn" + std::to_string((f * 7 + static_cast<int>(seed)) % 300), "",
                                     "src/file" + std::to_string(f % 9) + ".go", f);
    otlp::Location loc;
    loc.set_address(0x400000 + static_cast<uint64_t>(f) * 64);
    auto* line = loc.add_lines();
    line->set_function_index(fn);
    line->set_line(10 + f % 30);
    locations.push_back(dict.location(loc));
  }
  int32_t thread_attr[4];
  for (int t = 0; t < 4; ++t) thread_attr[t] = dict.stringAttribute("thread.name", "worker-" + std::to_string(t));
  const int32_t link = dict.link(std::string(16, 'x'), std::string(8, static_cast<char>('a' + seed % 5)));
  for (int p = 0; p < profiles; ++p) {
    auto* prof = sp->add_profiles();
    prof->mutable_sample_type()->set_type_strindex(dict.string("cpu"));
    prof->mutable_sample_type()->set_unit_strindex(dict.string("nanoseconds"));
    prof->set_time_unix_nano(1700000000000000000ull + static_cast<uint64_t>(p) * 10000000000ull);
    prof->set_duration_nano(10000000000ull);
    std::vector<int32_t> stack;
    for (int s = 0; s < samples; ++s) {
      stack.clear();
      const int depth = 2 + static_cast<int>(rng() % 12);
      for (int i = 0; i < depth; ++i) stack.push_back(locations[rng() % locations.size()]);
      auto* sample = prof->add_samples();
      sample->set_stack_index(dict.stack(stack));
      sample->add_attribute_indices(thread_attr[rng() % 4]);
      if (rng() % 4 == 0) sample->set_link_index(link);
      sample->add_values(10000000 * (1 + static_cast<int64_t>(rng() % 5)));
    }
  }
  return r;
}

std::vector<std::pair<std::string, otlp::Request>> pprofRequests() {
  std::vector<std::pair<std::string, otlp::Request>> out;
  const std::string dir = std::string(PROFLOW_SOURCE_DIR) + "/tests/";
  for (const char* file : {"core/flat/testdata/go_cpu.pb.gz", "core/flat/testdata/go_heap.pb.gz",
                           "receivers/pyroscope/testdata/ingest_wall.pb.gz"}) {
    otlp::Request r;
    pprof::PprofToOtlpOptions options;
    options.resource_attributes = {{"service.name", file}};
    options.keep_original_payload = true;
    if (!pprof::pprofBytesToOtlp(::proflow::testing::readFile(dir + file), options, &r).isOk()) std::abort();
    out.emplace_back(file, std::move(r));
  }
  return out;
}

std::vector<std::pair<std::string, otlp::Request>> corpus() {
  std::vector<std::pair<std::string, otlp::Request>> out;
  out.emplace_back("every_field", everyFieldRequest());
  out.emplace_back("agent", agentRequest(3, 200, 1));
  out.emplace_back("empty", otlp::Request());
  for (auto& p : pprofRequests()) out.push_back(std::move(p));
  return out;
}

}  // namespace proflow::flat::testing
