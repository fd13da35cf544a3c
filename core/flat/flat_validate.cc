// The receivers' structural checks on a flat batch: the only copy of these rules.
#include <algorithm>

#include "core/flat/flat_decode.h"

namespace proflow::flat {
namespace {

std::string at(const char* table, size_t i) { return std::string(table) + "[" + std::to_string(i) + "]"; }

class Checker {
 public:
  explicit Checker(const Batch& b) : b_(b) {}

  bool str(int32_t i) const { return inRange(i, b_.strings.size()); }
  bool attr(int32_t i) const { return inRange(i, b_.attributes.size()); }
  bool attrs(Range r) const {
    for (int32_t a : b_.indexList(r))
      if (!attr(a)) return false;
    return true;
  }

  Status dictionary() const {
    if (!b_.strings.empty() && b_.strings[0].size != 0)
      return Status::invalid("dictionary: string_table[0] must be the empty string");
    for (size_t i = 0; i < b_.attributes.size(); ++i) {
      const Attribute& a = b_.attributes[i];
      if (!str(a.key_strindex) || !str(a.unit_strindex))
        return Status::invalid("dictionary: " + at("attribute_table", i) + " has a string index out of range");
      if (a.value.kind == ValueKind::kStrindex && !str(a.value.strindex()))
        return Status::invalid("dictionary: " + at("attribute_table", i) + " value string index out of range");
    }
    for (size_t i = 0; i < b_.functions.size(); ++i) {
      const Function& f = b_.functions[i];
      if (!str(f.name_strindex) || !str(f.system_name_strindex) || !str(f.filename_strindex))
        return Status::invalid("dictionary: " + at("function_table", i) + " has a string index out of range");
    }
    for (size_t i = 0; i < b_.mappings.size(); ++i) {
      const Mapping& m = b_.mappings[i];
      if (!str(m.filename_strindex))
        return Status::invalid("dictionary: " + at("mapping_table", i) + " filename_strindex out of range");
      if (!attrs(m.attributes))
        return Status::invalid("dictionary: " + at("mapping_table", i) + " attribute index out of range");
    }
    const size_t mapping_bound = std::max<size_t>(1, b_.mappings.size());
    const size_t function_bound = std::max<size_t>(1, b_.functions.size());
    for (size_t i = 0; i < b_.locations.size(); ++i) {
      const Location& l = b_.locations[i];
      if (!inRange(l.mapping_index, mapping_bound))
        return Status::invalid("dictionary: " + at("location_table", i) + " mapping_index " +
                               std::to_string(l.mapping_index) + " out of range");
      for (const Line& line : Batch::slice(b_.lines, l.lines))
        if (!inRange(line.function_index, function_bound))
          return Status::invalid("dictionary: " + at("location_table", i) + " function_index " +
                                 std::to_string(line.function_index) + " out of range");
      if (!attrs(l.attributes))
        return Status::invalid("dictionary: " + at("location_table", i) + " attribute index out of range");
    }
    for (size_t i = 0; i < b_.stacks.size(); ++i)
      for (int32_t l : b_.indexList(b_.stacks[i].locations))
        if (!inRange(l, b_.locations.size()))
          return Status::invalid("dictionary: " + at("stack_table", i) + " location index " + std::to_string(l) +
                                 " out of range (location_table has " + std::to_string(b_.locations.size()) +
                                 " entries)");
    for (size_t i = 0; i < b_.links.size(); ++i) {
      const Link& l = b_.links[i];
      if ((l.trace_id.size != 0 && l.trace_id.size != 16) || (l.span_id.size != 0 && l.span_id.size != 8))
        return Status::invalid("dictionary: " + at("link_table", i) + " must have a 16-byte trace_id and 8-byte span_id");
    }
    return Status::ok();
  }

  // Empty when the profile is valid.
  std::string profile(const Profile& p, const std::vector<uint32_t>& unknown_samples) const {
    if (!str(p.sample_type.type_strindex) || !str(p.sample_type.unit_strindex) ||
        !str(p.period_type.type_strindex) || !str(p.period_type.unit_strindex))
      return "sample_type/period_type string index out of range";
    for (int32_t a : b_.indexList(p.attributes))
      if (!attr(a)) return "profile attribute index " + std::to_string(a) + " out of range";
    if (p.profile_id.size != 0 && p.profile_id.size != 16) return "profile_id must be 16 bytes";
    const SampleColumns& s = b_.samples;
    for (uint32_t row = p.samples.begin, i = 0; row < p.samples.end(); ++row, ++i) {
      if (!inRange(s.stack_index[row], b_.stacks.size()))
        return at("samples", i) + ": stack_index " + std::to_string(s.stack_index[row]) + " out of range";
      if (!inRange(s.link_index[row], b_.links.size())) return at("samples", i) + ": link_index out of range";
      for (int32_t a : b_.indexList(s.attributes[row]))
        if (!attr(a)) return at("samples", i) + ": attribute index " + std::to_string(a) + " out of range";
      const uint32_t values = s.values[row].size, timestamps = s.timestamps[row].size;
      if (values > 0 && timestamps > 0 && values != timestamps)
        return at("samples", i) + ": values and timestamps_unix_nano must have the same length";
      if (values == 0 && timestamps == 0) {
        if (std::binary_search(unknown_samples.begin(), unknown_samples.end(), row))
          return at("samples", i) +
                 ": no values; the sample carries fields in the pre-v1.10 layout (values moved from field 2 to 4 in "
                 "OTLP profiles v1.10) — upgrade the sender to opentelemetry-proto >= 1.10";
        return at("samples", i) + ": a sample needs values or timestamps_unix_nano";
      }
    }
    return {};
  }

 private:
  static bool inRange(int32_t i, size_t size) { return i >= 0 && static_cast<size_t>(i) < size; }
  const Batch& b_;
};

bool topLevelRefsInRange(const Checker& c, const Batch& b, Range attributes) {
  for (const KeyValue& kv : Batch::slice(b.key_values, attributes))
    if (!c.str(kv.key_strindex) || (kv.value.kind == ValueKind::kStrindex && !c.str(kv.value.strindex())))
      return false;
  return true;
}

}  // namespace

DecodeResult validateAndPrune(Batch* batch, const std::vector<uint32_t>& samples_with_unknown_fields) {
  DecodeResult result;
  Batch& b = *batch;
  bool any_profile = false;
  for (const Scope& s : b.scopes) any_profile |= s.profiles.size > 0;
  if (!any_profile) return result;  // empty requests are accepted

  Checker checker(b);
  result.request = checker.dictionary();
  if (!result.request.isOk()) return result;

  for (const Resource& r : b.resources) {
    if (!topLevelRefsInRange(checker, b, r.attributes)) {
      result.request = Status::invalid("resource attribute string index out of range");
      return result;
    }
    b.forEachScope(r, [&](uint32_t s) {
      Range& profiles = b.scopes[s].profiles;
      uint32_t kept = profiles.begin;
      for (uint32_t i = profiles.begin; i < profiles.end(); ++i) {
        std::string err = checker.profile(b.profiles[i], samples_with_unknown_fields);
        if (err.empty()) {
          b.profiles[kept++] = b.profiles[i];
          continue;
        }
        result.profile_errors.push_back("profile " + std::to_string(result.rejected_profiles) + ": " + err);
        ++result.rejected_profiles;
      }
      profiles.size = kept - profiles.begin;
    });
  }
  return result;
}

}  // namespace proflow::flat
