#include "tests/support/profile_builder.h"

#include <set>

#include "tests/support/dictionary_builder.h"

namespace proflow::testing {

otlp::Request makeRequest(const std::string& service, const std::vector<ProfileSpec>& profiles) {
  otlp::Request req;
  DictionaryBuilder dict(req.mutable_dictionary());
  auto* rp = req.add_resource_profiles();
  auto* attr = rp->mutable_resource()->add_attributes();
  attr->set_key("service.name");
  attr->mutable_value()->set_string_value(service);
  auto* sp = rp->add_scope_profiles();
  sp->mutable_scope()->set_name("proflow-test");
  for (const auto& spec : profiles) {
    auto* p = sp->add_profiles();
    p->mutable_sample_type()->set_type_strindex(dict.string(spec.sample_type));
    p->mutable_sample_type()->set_unit_strindex(dict.string(spec.sample_unit));
    p->set_time_unix_nano(spec.time_unix_nano);
    p->set_duration_nano(spec.duration_nano);
    for (const auto& s : spec.samples) {
      std::vector<int32_t> locs;
      for (size_t i = 0; i < s.frames.size(); ++i) {
        otlp::Location loc;
        auto* line = loc.add_lines();
        line->set_function_index(dict.function(s.frames[i], s.frames[i], s.frames[i] + ".cc"));
        line->set_line(static_cast<int64_t>(10 + i));
        locs.push_back(dict.location(loc));
      }
      auto* sample = p->add_samples();
      sample->set_stack_index(dict.stack(locs));
      sample->add_values(s.value);
    }
  }
  return req;
}

void referenceResourceAttributes(otlp::Request* request) {
  DictionaryBuilder dict(request->mutable_dictionary());
  for (auto& rp : *request->mutable_resource_profiles())
    for (auto& kv : *rp.mutable_resource()->mutable_attributes()) {
      kv.set_key_strindex(dict.string(kv.key()));
      kv.clear_key();
      if (kv.value().has_string_value())
        kv.mutable_value()->set_string_value_strindex(dict.string(kv.value().string_value()));
    }
}

ProfileSpec makeProfile(int n_samples, int seed) {
  ProfileSpec p;
  p.time_unix_nano += static_cast<uint64_t>(seed) * 1'000'000'000ULL;
  static const char* kLeaves[] = {"memcpy", "parse", "hash", "compress"};
  for (int i = 0; i < n_samples; ++i)
    p.samples.push_back({{kLeaves[(i + seed) % 4], "handle_request", "main"}, 100 + i + seed});
  return p;
}

std::vector<std::string> stackFrames(const otlp::Dictionary& dict, int32_t stack_index) {
  std::vector<std::string> out;
  if (stack_index < 0 || stack_index >= dict.stack_table_size()) return out;
  for (int32_t li : dict.stack_table(stack_index).location_indices()) {
    if (li < 0 || li >= dict.location_table_size()) continue;
    for (const auto& line : dict.location_table(li).lines()) {
      if (line.function_index() < 0 || line.function_index() >= dict.function_table_size()) continue;
      int32_t name = dict.function_table(line.function_index()).name_strindex();
      out.push_back(name >= 0 && name < dict.string_table_size() ? dict.string_table(name) : "?");
    }
  }
  return out;
}

std::string serviceName(const otlp::Request& request, int resource_index) {
  const auto& dict = request.dictionary();
  auto str = [&](int32_t i) { return i > 0 && i < dict.string_table_size() ? dict.string_table(i) : std::string(); };
  for (const auto& kv : request.resource_profiles(resource_index).resource().attributes()) {
    std::string key = kv.key_strindex() != 0 ? str(kv.key_strindex()) : kv.key();
    if (key != "service.name") continue;
    return kv.value().has_string_value_strindex() ? str(kv.value().string_value_strindex()) : kv.value().string_value();
  }
  return "";
}

namespace {

class Checker {
 public:
  explicit Checker(const otlp::Dictionary& d) : d_(d) {}

  void index(const char* what, int64_t i, int size) {
    if (i < 0 || i >= size) problems.push_back(std::string(what) + " index " + std::to_string(i) + " out of range");
  }
  void str(int32_t i) { index("string", i, d_.string_table_size()); }

  void zeroValues() {
    auto zero = [&](const char* what, int size, const google::protobuf::Message& first) {
      if (size == 0 || first.ByteSizeLong() != 0) problems.push_back(std::string(what) + "[0] is not the zero value");
    };
    if (d_.string_table_size() == 0 || !d_.string_table(0).empty()) problems.push_back("string_table[0] is not \"\"");
    if (d_.function_table_size()) zero("function_table", d_.function_table_size(), d_.function_table(0));
    if (d_.location_table_size()) zero("location_table", d_.location_table_size(), d_.location_table(0));
    if (d_.stack_table_size()) zero("stack_table", d_.stack_table_size(), d_.stack_table(0));
    if (d_.mapping_table_size()) zero("mapping_table", d_.mapping_table_size(), d_.mapping_table(0));
  }

  void duplicates() {
    std::set<std::string> seen;
    for (const auto& s : d_.string_table())
      if (!seen.insert(s).second) problems.push_back("duplicate string '" + s + "'");
    std::set<std::string> funcs;
    for (const auto& f : d_.function_table())
      if (!funcs.insert(f.SerializeAsString()).second) problems.push_back("duplicate function");
    std::set<std::string> stacks;
    for (const auto& s : d_.stack_table())
      if (!stacks.insert(s.SerializeAsString()).second) problems.push_back("duplicate stack");
  }

  void tables() {
    for (const auto& f : d_.function_table()) {
      str(f.name_strindex());
      str(f.system_name_strindex());
      str(f.filename_strindex());
    }
    for (const auto& l : d_.location_table()) {
      index("mapping", l.mapping_index(), d_.mapping_table_size());
      for (const auto& line : l.lines()) index("function", line.function_index(), d_.function_table_size());
    }
    for (const auto& s : d_.stack_table())
      for (int32_t li : s.location_indices()) index("location", li, d_.location_table_size());
    for (const auto& a : d_.attribute_table()) str(a.key_strindex());
  }

  void profile(const otlp::Profile& p) {
    str(p.sample_type().type_strindex());
    str(p.sample_type().unit_strindex());
    for (const auto& s : p.samples()) {
      index("stack", s.stack_index(), d_.stack_table_size());
      index("link", s.link_index(), std::max(1, d_.link_table_size()));
      for (int32_t a : s.attribute_indices()) index("attribute", a, d_.attribute_table_size());
    }
  }

  std::vector<std::string> problems;

 private:
  const otlp::Dictionary& d_;
};

}  // namespace

std::vector<std::string> dictionaryProblems(const otlp::Request& request) {
  Checker c(request.dictionary());
  c.zeroValues();
  c.duplicates();
  c.tables();
  for (const auto& rp : request.resource_profiles())
    for (const auto& sp : rp.scope_profiles())
      for (const auto& p : sp.profiles()) c.profile(p);
  return c.problems;
}

}  // namespace proflow::testing
