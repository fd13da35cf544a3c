#include "core/otlp_validate.h"

#include <google/protobuf/unknown_field_set.h>

namespace proflow {
namespace {

std::string at(const char* table, int i) { return std::string(table) + "[" + std::to_string(i) + "]"; }

class DictionaryChecker {
 public:
  explicit DictionaryChecker(const otlp::Dictionary& d) : d_(d) {}

  bool str(int32_t i) const { return i >= 0 && i < d_.string_table_size(); }
  bool attr(int32_t i) const { return i >= 0 && i < d_.attribute_table_size(); }
  bool stack(int32_t i) const { return i >= 0 && i < d_.stack_table_size(); }
  bool link(int32_t i) const { return i >= 0 && i < d_.link_table_size(); }

  Status check() const {
    if (d_.string_table_size() > 0 && !d_.string_table(0).empty())
      return Status::invalid("dictionary: string_table[0] must be the empty string");
    for (int i = 0; i < d_.attribute_table_size(); ++i) {
      const auto& a = d_.attribute_table(i);
      if (!str(a.key_strindex()) || !str(a.unit_strindex()))
        return Status::invalid("dictionary: " + at("attribute_table", i) + " has a string index out of range");
      if (a.value().value_case() == otlp::AnyValue::kStringValueStrindex && !str(a.value().string_value_strindex()))
        return Status::invalid("dictionary: " + at("attribute_table", i) + " value string index out of range");
    }
    for (int i = 0; i < d_.function_table_size(); ++i) {
      const auto& f = d_.function_table(i);
      if (!str(f.name_strindex()) || !str(f.system_name_strindex()) || !str(f.filename_strindex()))
        return Status::invalid("dictionary: " + at("function_table", i) + " has a string index out of range");
    }
    for (int i = 0; i < d_.mapping_table_size(); ++i) {
      const auto& m = d_.mapping_table(i);
      if (!str(m.filename_strindex()))
        return Status::invalid("dictionary: " + at("mapping_table", i) + " filename_strindex out of range");
      for (auto a : m.attribute_indices())
        if (!attr(a)) return Status::invalid("dictionary: " + at("mapping_table", i) + " attribute index out of range");
    }
    for (int i = 0; i < d_.location_table_size(); ++i) {
      const auto& l = d_.location_table(i);
      if (l.mapping_index() < 0 || l.mapping_index() >= std::max(1, d_.mapping_table_size()))
        return Status::invalid("dictionary: " + at("location_table", i) + " mapping_index " +
                               std::to_string(l.mapping_index()) + " out of range");
      for (const auto& line : l.lines())
        if (line.function_index() < 0 || line.function_index() >= std::max(1, d_.function_table_size()))
          return Status::invalid("dictionary: " + at("location_table", i) + " function_index " +
                                 std::to_string(line.function_index()) + " out of range");
      for (auto a : l.attribute_indices())
        if (!attr(a)) return Status::invalid("dictionary: " + at("location_table", i) + " attribute index out of range");
    }
    for (int i = 0; i < d_.stack_table_size(); ++i)
      for (auto l : d_.stack_table(i).location_indices())
        if (l < 0 || l >= d_.location_table_size())
          return Status::invalid("dictionary: " + at("stack_table", i) + " location index " + std::to_string(l) +
                                 " out of range (location_table has " + std::to_string(d_.location_table_size()) +
                                 " entries)");
    for (int i = 0; i < d_.link_table_size(); ++i) {
      const auto& l = d_.link_table(i);
      if ((!l.trace_id().empty() && l.trace_id().size() != 16) || (!l.span_id().empty() && l.span_id().size() != 8))
        return Status::invalid("dictionary: " + at("link_table", i) + " must have a 16-byte trace_id and 8-byte span_id");
    }
    return Status::ok();
  }

  // Empty when the profile is valid.
  std::string checkProfile(const otlp::Profile& p) const {
    if (!str(p.sample_type().type_strindex()) || !str(p.sample_type().unit_strindex()) ||
        !str(p.period_type().type_strindex()) || !str(p.period_type().unit_strindex()))
      return "sample_type/period_type string index out of range";
    for (auto a : p.attribute_indices())
      if (!attr(a)) return "profile attribute index " + std::to_string(a) + " out of range";
    if (!p.profile_id().empty() && p.profile_id().size() != 16) return "profile_id must be 16 bytes";
    for (int i = 0; i < p.samples_size(); ++i) {
      const auto& s = p.samples(i);
      if (!stack(s.stack_index()))
        return at("samples", i) + ": stack_index " + std::to_string(s.stack_index()) + " out of range";
      if (!link(s.link_index())) return at("samples", i) + ": link_index out of range";
      for (auto a : s.attribute_indices())
        if (!attr(a)) return at("samples", i) + ": attribute index " + std::to_string(a) + " out of range";
      if (s.values_size() > 0 && s.timestamps_unix_nano_size() > 0 && s.values_size() != s.timestamps_unix_nano_size())
        return at("samples", i) + ": values and timestamps_unix_nano must have the same length";
      if (s.values_size() == 0 && s.timestamps_unix_nano_size() == 0) {
        if (!s.GetReflection()->GetUnknownFields(s).empty())
          return at("samples", i) +
                 ": no values; the sample carries fields in the pre-v1.10 layout (values moved from field 2 to 4 in "
                 "OTLP profiles v1.10) — upgrade the sender to opentelemetry-proto >= 1.10";
        return at("samples", i) + ": a sample needs values or timestamps_unix_nano";
      }
    }
    return {};
  }

 private:
  const otlp::Dictionary& d_;
};

}  // namespace

ValidationResult validateAndPrune(otlp::Request* request) {
  ValidationResult result;
  bool any_profile = false;
  for (const auto& rp : request->resource_profiles())
    for (const auto& sp : rp.scope_profiles()) any_profile |= sp.profiles_size() > 0;
  if (!any_profile) return result;  // empty requests are accepted

  DictionaryChecker checker(request->dictionary());
  result.request = checker.check();
  if (!result.request.isOk()) return result;

  for (auto& rp : *request->mutable_resource_profiles()) {
    for (auto& kv : rp.resource().attributes())
      if (!checker.str(kv.key_strindex()) ||
          (kv.value().value_case() == otlp::AnyValue::kStringValueStrindex && !checker.str(kv.value().string_value_strindex()))) {
        result.request = Status::invalid("resource attribute string index out of range");
        return result;
      }
    for (auto& sp : *rp.mutable_scope_profiles()) {
      auto* profiles = sp.mutable_profiles();
      for (int i = 0; i < profiles->size();) {
        std::string err = checker.checkProfile(profiles->Get(i));
        if (err.empty()) {
          ++i;
          continue;
        }
        result.profile_errors.push_back("profile " + std::to_string(result.rejected_profiles) + ": " + err);
        ++result.rejected_profiles;
        profiles->DeleteSubrange(i, 1);
      }
    }
  }
  return result;
}

}  // namespace proflow
