// Structural validation of a pprof profile, written once for the protobuf Profile and the wire
// ProfileView (same accessors). Internal to the pprof library: use validateProfile().
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include "core/formats/pprof/pprof_codec.h"
#include "core/util/status.h"

namespace proflow::pprof::internal {

inline std::string str(uint64_t v) { return std::to_string(v); }
inline std::string str(int64_t v) { return std::to_string(v); }

// Error locations ("sample 12 label 0") are formatted only when reporting, never per valid entry.

// Set of the ids of one table. Producers almost always number densely from 1, so ids up to twice
// the table size use a flat bitmap; anything else falls back to a hash set.
class IdSet {
 public:
  explicit IdSet(size_t n) : limit_(2 * n + 1), flat_(limit_, false) {}

  // False when `id` was already present.
  bool insert(uint64_t id) {
    if (id < limit_) {
      if (flat_[id]) return false;
      flat_[id] = true;
      return true;
    }
    return sparse_.insert(id).second;
  }
  bool contains(uint64_t id) const { return id < limit_ ? flat_[id] : sparse_.count(id) != 0; }

 private:
  uint64_t limit_;
  std::vector<bool> flat_;
  std::unordered_set<uint64_t> sparse_;
};

// True when `f` holds for every location id of a sample: the view's ids test their width once
// (LocationIds::allOf), protobuf's are a plain repeated field.
template <class Ids, class F>
bool allIds(const Ids& ids, const F& f) {
  if constexpr (requires { ids.allOf(f); }) {
    return ids.allOf(f);
  } else {
    for (uint64_t id : ids)
      if (!f(id)) return false;
    return true;
  }
}

template <class P>
class ProfileValidator {
 public:
  ProfileValidator(const P& p, const ProfileLimits& limits) : p_(p), limits_(limits), nstrings_(p.string_table_size()) {}

  Status run() {
    if (auto s = checkTableLimits(); !s) return s;
    if (nstrings_ == 0) return fail("string_table is empty (entry 0 must be \"\")");
    if (!p_.string_table(0).empty()) return fail("string_table[0] is not empty");
    if (auto s = checkHeader(); !s) return s;
    if (auto s = checkMappings(); !s) return s;
    if (auto s = checkFunctions(); !s) return s;
    if (auto s = checkLocations(); !s) return s;
    return checkSamples();
  }

 private:
  static Status fail(const std::string& what) { return Status::invalid("pprof: " + what); }
  static Status overLimit(const std::string& what, uint64_t n, const char* limit, uint64_t max) {
    return Status::tooLarge("pprof: " + what + " " + str(n) + " exceeds " + limit + " " + str(max));
  }

  Status checkTableLimits() const {
    if (static_cast<uint64_t>(p_.sample_size()) > limits_.max_samples)
      return overLimit("sample count", static_cast<uint64_t>(p_.sample_size()), "max_samples", limits_.max_samples);
    if (static_cast<uint64_t>(p_.sample_type_size()) > limits_.max_sample_types)
      return overLimit("sample type count", static_cast<uint64_t>(p_.sample_type_size()), "max_sample_types",
                       limits_.max_sample_types);
    for (int i = 0; i < nstrings_; ++i)
      if (p_.string_table(i).size() > limits_.max_string_length)
        return overLimit("string_table[" + std::to_string(i) + "] length", p_.string_table(i).size(),
                         "max_string_length", limits_.max_string_length);
    return {};
  }

  bool strOk(int64_t i) const { return i >= 0 && i < nstrings_; }
  Status badStr(const std::string& where, int64_t i) const {
    return fail(where + ": string index " + str(i) + " out of range (string_table has " + str(int64_t{nstrings_}) +
                " entries)");
  }

  template <class ValueType>
  Status checkValueType(const std::string& where, const ValueType& vt) const {
    if (!strOk(vt.type())) return badStr(where + " type", vt.type());
    if (!strOk(vt.unit())) return badStr(where + " unit", vt.unit());
    return {};
  }

  Status checkHeader() const {
    for (int i = 0; i < p_.sample_type_size(); ++i)
      if (auto s = checkValueType("sample_type " + std::to_string(i), p_.sample_type(i)); !s) return s;
    if (p_.has_period_type())
      if (auto s = checkValueType("period_type", p_.period_type()); !s) return s;
    if (!strOk(p_.drop_frames())) return badStr("drop_frames", p_.drop_frames());
    if (!strOk(p_.keep_frames())) return badStr("keep_frames", p_.keep_frames());
    if (!strOk(p_.default_sample_type())) return badStr("default_sample_type", p_.default_sample_type());
    if (!strOk(p_.doc_url())) return badStr("doc_url", p_.doc_url());
    for (int i = 0; i < p_.comment_size(); ++i)
      if (!strOk(p_.comment(i))) return badStr("comment " + std::to_string(i), p_.comment(i));
    return {};
  }

  Status checkMappings() {
    for (int i = 0; i < p_.mapping_size(); ++i) {
      const auto& m = p_.mapping(i);
      auto where = [&] { return std::string("mapping ") + std::to_string(i); };
      if (m.id() == 0) return fail(where() + ": id is 0");
      if (!mappings_.insert(m.id())) return fail(where() + ": duplicate id " + str(m.id()));
      if (!strOk(m.filename())) return badStr(where() + " filename", m.filename());
      if (!strOk(m.build_id())) return badStr(where() + " build_id", m.build_id());
    }
    return {};
  }

  Status checkFunctions() {
    for (int i = 0; i < p_.function_size(); ++i) {
      const auto& f = p_.function(i);
      auto where = [&] { return std::string("function ") + std::to_string(i); };
      if (f.id() == 0) return fail(where() + ": id is 0");
      if (!functions_.insert(f.id())) return fail(where() + ": duplicate id " + str(f.id()));
      if (!strOk(f.name())) return badStr(where() + " name", f.name());
      if (!strOk(f.system_name())) return badStr(where() + " system_name", f.system_name());
      if (!strOk(f.filename())) return badStr(where() + " filename", f.filename());
    }
    return {};
  }

  Status checkLocations() {
    for (int i = 0; i < p_.location_size(); ++i) {
      const auto& l = p_.location(i);
      auto where = [&] { return std::string("location ") + std::to_string(i); };
      if (l.id() == 0) return fail(where() + ": id is 0");
      if (!locations_.insert(l.id())) return fail(where() + ": duplicate id " + str(l.id()));
      if (l.mapping_id() != 0 && !mappings_.contains(l.mapping_id()))
        return fail(where() + " (id " + str(l.id()) + "): mapping_id " + str(l.mapping_id()) + " not found");
      for (int j = 0; j < l.line_size(); ++j) {
        uint64_t fid = l.line(j).function_id();
        if (fid != 0 && !functions_.contains(fid))
          return fail(where() + " (id " + str(l.id()) + ") line " + std::to_string(j) + ": function_id " + str(fid) +
                      " not found");
      }
    }
    return {};
  }

  Status checkSamples() const {
    const int nvalues = p_.sample_type_size();
    for (int i = 0; i < p_.sample_size(); ++i) {
      const auto& s = p_.sample(i);
      auto where = [&] { return std::string("sample ") + std::to_string(i); };
      if (s.value_size() != nvalues)
        return fail(where() + ": has " + std::to_string(s.value_size()) + " values but there are " +
                    std::to_string(nvalues) + " sample types");
      if (static_cast<uint64_t>(s.location_id().size()) > limits_.max_stack_depth)
        return overLimit(where() + " stack depth", static_cast<uint64_t>(s.location_id().size()), "max_stack_depth",
                         limits_.max_stack_depth);
      if (static_cast<uint64_t>(s.label_size()) > limits_.max_labels_per_sample)
        return overLimit(where() + " label count", static_cast<uint64_t>(s.label_size()), "max_labels_per_sample",
                         limits_.max_labels_per_sample);
      uint64_t missing = 0;
      if (!allIds(s.location_id(), [&](uint64_t id) { return locations_.contains(id) || (missing = id, false); }))
        return fail(where() + ": location_id " + str(missing) + " not found");
      for (int j = 0; j < s.label_size(); ++j) {
        const auto& l = s.label(j);
        auto lw = [&] { return where() + " label " + std::to_string(j); };
        if (!strOk(l.key())) return badStr(lw() + " key", l.key());
        if (!strOk(l.str())) return badStr(lw() + " str", l.str());
        if (!strOk(l.num_unit())) return badStr(lw() + " num_unit", l.num_unit());
      }
    }
    return {};
  }

  const P& p_;
  const ProfileLimits& limits_;
  int64_t nstrings_;
  IdSet mappings_{static_cast<size_t>(p_.mapping_size())};
  IdSet functions_{static_cast<size_t>(p_.function_size())};
  IdSet locations_{static_cast<size_t>(p_.location_size())};
};

}  // namespace proflow::pprof::internal
