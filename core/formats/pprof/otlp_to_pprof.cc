#include "core/formats/pprof/otlp_to_pprof.h"

#include <algorithm>

#include "core/model/dictionary_builder.h"
#include "core/formats/pprof/pprof_builder.h"
#include "core/formats/pprof/pprof_ids.h"
#include "core/formats/pprof/profile_draft.h"
#include "core/util/saturating.h"

namespace proflow::pprof {
namespace {

using internal::PprofBuilder;
using internal::ProfileDraft;

struct ScopeInfo {
  std::vector<int64_t> order;  // pprof.scope.sample_type_order
  std::string default_sample_type;
  const otlp::AnyValue* unreferenced_mappings = nullptr;
};

std::string_view keyOf(const otlp::KeyValue& kv, const otlp::Dictionary& dict) {
  return kv.key_strindex() != 0 ? dictString(dict, kv.key_strindex()) : std::string_view(kv.key());
}

ScopeInfo readScope(const otlp::ScopeProfiles& sp, const otlp::Dictionary& dict) {
  ScopeInfo info;
  for (const auto& kv : sp.scope().attributes()) {
    std::string_view key = keyOf(kv, dict);
    if (key == attr::kSampleTypeOrder && kv.value().has_array_value()) {
      for (const auto& v : kv.value().array_value().values()) info.order.push_back(v.int_value());
    } else if (key == attr::kUnreferencedMappings && kv.value().has_array_value()) {
      info.unreferenced_mappings = &kv.value();
    } else if (key == attr::kDefaultSampleType) {
      info.default_sample_type = kv.value().has_string_value()
                                     ? kv.value().string_value()
                                     : std::string(dictString(dict, kv.value().string_value_strindex()));
    }
  }
  return info;
}

bool sameIdentity(const otlp::Sample& a, const otlp::Sample& b) {
  return a.stack_index() == b.stack_index() && a.link_index() == b.link_index() &&
         std::equal(a.attribute_indices().begin(), a.attribute_indices().end(), b.attribute_indices().begin(),
                    b.attribute_indices().end()) &&
         std::equal(a.timestamps_unix_nano().begin(), a.timestamps_unix_nano().end(),
                    b.timestamps_unix_nano().begin(), b.timestamps_unix_nano().end());
}

// Profiles of the scope in original sample-type order when they can be zipped back into one pprof;
// empty when they cannot (then each profile stands alone).
std::vector<int> zipOrder(const otlp::ScopeProfiles& sp, const ScopeInfo& info) {
  const int n = sp.profiles_size();
  if (n < 2 || static_cast<int>(info.order.size()) != n) return {};
  std::vector<int> by_type(n, -1);  // original type index -> profile index
  for (int j = 0; j < n; ++j) {
    int64_t t = info.order[j];
    if (t < 0 || t >= n || by_type[t] >= 0) return {};
    by_type[t] = j;
  }
  const auto& first = sp.profiles(0);
  for (int j = 1; j < n; ++j) {
    const auto& other = sp.profiles(j);
    if (other.samples_size() != first.samples_size()) return {};
    for (int i = 0; i < first.samples_size(); ++i)
      if (!sameIdentity(first.samples(i), other.samples(i))) return {};
  }
  return by_type;
}

int64_t sum(const otlp::Sample& s) {
  int64_t total = 0;
  for (int64_t v : s.values()) total = saturatingAdd(total, v);  // values are the sender's: no overflow
  return total;
}

class GroupConverter {
 public:
  GroupConverter(const otlp::Dictionary& dict, const OtlpToPprofOptions& o, ProfileDraft* out)
      : dict_(dict), o_(o), out_(out), b_(dict, out) {}

  // `profiles` in pprof sample-type order.
  Status run(const std::vector<const otlp::Profile*>& profiles, const std::string& default_type,
             const otlp::AnyValue* unreferenced_mappings) {
    if (auto st = header(profiles); !st) return st;
    if (!default_type.empty()) out_->default_sample_type = b_.str(default_type);
    const int n = profiles[0]->samples_size();
    for (int i = 0; i < n; ++i)
      if (auto st = sample(profiles, i); !st) return Status::invalid(st.message() + " (sample " + std::to_string(i) + ")");
    b_.finish();
    if (unreferenced_mappings != nullptr) addMappings(*unreferenced_mappings);
    return {};
  }

 private:
  Status header(const std::vector<const otlp::Profile*>& profiles) {
    for (const auto* p : profiles) {
      auto& vt = out_->sample_type.emplace_back();
      std::string_view type = dictString(dict_, p->sample_type().type_strindex());
      std::string_view unit = dictString(dict_, p->sample_type().unit_strindex());
      // A producer that only sends timestamps may leave the type unset: its events are counts.
      if (type.empty() && unit.empty()) type = "samples", unit = "count";
      vt.type_ = b_.str(type);
      vt.unit_ = b_.str(unit);
    }
    const auto& first = *profiles[0];
    out_->time_nanos = static_cast<int64_t>(first.time_unix_nano());
    out_->duration_nanos = static_cast<int64_t>(first.duration_nano());
    if (first.has_period_type()) {
      out_->has_period_type = true;
      out_->period_type.type_ = b_.str(dictString(dict_, first.period_type().type_strindex()));
      out_->period_type.unit_ = b_.str(dictString(dict_, first.period_type().unit_strindex()));
    }
    out_->period = first.period();
    return b_.addProfileAttributes(first);
  }

  // Mappings pprofToOtlp kept by value because no location referred to them.
  void addMappings(const otlp::AnyValue& list) {
    uint64_t next_id = 0;
    for (const auto& m : out_->mappings) next_id = std::max(next_id, m.id_);
    for (const auto& item : list.array_value().values()) {
      view::Mapping m;
      m.id_ = ++next_id;
      for (const auto& f : item.kvlist_value().values()) {
        const auto& k = f.key();
        const auto& v = f.value();
        auto text = [&] {
          return v.has_string_value() ? std::string_view(v.string_value()) : dictString(dict_, v.string_value_strindex());
        };
        if (k == "memory_start") m.memory_start_ = static_cast<uint64_t>(v.int_value());
        if (k == "memory_limit") m.memory_limit_ = static_cast<uint64_t>(v.int_value());
        if (k == "file_offset") m.file_offset_ = static_cast<uint64_t>(v.int_value());
        if (k == "filename") m.filename_ = b_.str(text());
        if (k == "build_id") m.build_id_ = b_.str(text());
        if (k == "has_functions") m.has_functions_ = v.bool_value();
        if (k == "has_filenames") m.has_filenames_ = v.bool_value();
        if (k == "has_line_numbers") m.has_line_numbers_ = v.bool_value();
        if (k == "has_inline_frames") m.has_inline_frames_ = v.bool_value();
      }
      out_->mappings.push_back(m);
    }
  }

  bool hasTimestampAttribute(const otlp::Sample& s) const {
    for (int32_t ai : s.attribute_indices()) {
      if (ai < 0 || ai >= dict_.attribute_table_size()) continue;
      if (dictString(dict_, dict_.attribute_table(ai).key_strindex()) == kTimestampLabel) return true;
    }
    return false;
  }

  Status sample(const std::vector<const otlp::Profile*>& profiles, int i) {
    const otlp::Sample& base = profiles[0]->samples(i);
    const int events = base.timestamps_unix_nano_size();
    out_->beginSample();
    if (auto st = b_.addStack(base.stack_index()); !st) return st;
    if (auto st = b_.addLabels(base); !st) return st;
    const bool split = events > 0 && o_.timestamps == OtlpToPprofOptions::Timestamps::kLabel &&
                       !(events == 1 && hasTimestampAttribute(base));
    if (!split) {
      // Aggregated: timestamps without values count one event each.
      for (const auto* p : profiles) {
        const auto& ps = p->samples(i);
        out_->values.push_back(ps.values_size() == 0 ? ps.timestamps_unix_nano_size() : sum(ps));
      }
      return {};
    }
    // One pprof sample per event (same stack and labels), each labelled with its timestamp.
    for (int e = 0; e < events; ++e) {
      for (const auto* p : profiles) {
        const auto& ps = p->samples(i);
        int64_t v = ps.values_size() == events ? ps.values(e)
                    : ps.values_size() == 0    ? 1
                    : e == 0                   ? sum(ps)
                                               : 0;
        out_->values.push_back(v);
      }
      b_.addEvent(static_cast<int64_t>(base.timestamps_unix_nano(e)));
    }
    return {};
  }

  const otlp::Dictionary& dict_;
  const OtlpToPprofOptions& o_;
  ProfileDraft* out_;
  PprofBuilder b_;
};

// Where converted groups go: kept as messages, or encoded straight away.
class GroupSink {
 public:
  virtual ~GroupSink() = default;
  // Called once per converted group.
  virtual Status take(const ProfileDraft& draft, std::vector<int> indices) = 0;
};

class MessageSink : public GroupSink {
 public:
  explicit MessageSink(std::vector<PprofFromOtlp>* out) : out_(out) {}
  Status take(const ProfileDraft& draft, std::vector<int> indices) override {
    auto& e = out_->emplace_back();
    internal::toProfile(draft, &e.profile);
    e.profile_indices = std::move(indices);
    return {};
  }

 private:
  std::vector<PprofFromOtlp>* out_;
};

class BytesSink : public GroupSink {
 public:
  BytesSink(std::vector<EncodedPprof>* out, Encoding enc, int level) : out_(out), enc_(enc), level_(level) {}
  Status take(const ProfileDraft& draft, std::vector<int> indices) override {
    EncodedPprof e;
    // No Profile message on the way to bytes, and no buffer of the whole serialized profile.
    if (auto st = internal::writeProfile(draft, &e.data, enc_, level_); !st) return st;
    e.profile_indices = std::move(indices);
    out_->push_back(std::move(e));
    return {};
  }

 private:
  std::vector<EncodedPprof>* out_;
  Encoding enc_;
  int level_;
};

Status convertGroup(const otlp::Dictionary& dict, const otlp::ScopeProfiles& sp, std::vector<int> indices,
                    const std::string& default_type, const otlp::AnyValue* unreferenced_mappings,
                    const OtlpToPprofOptions& options, GroupSink* sink) {
  std::vector<const otlp::Profile*> profiles;
  for (int j : indices) profiles.push_back(&sp.profiles(j));
  ProfileDraft draft;
  auto st = GroupConverter(dict, options, &draft).run(profiles, default_type, unreferenced_mappings);
  if (!st) return st;
  std::sort(indices.begin(), indices.end());
  return sink->take(draft, std::move(indices));
}

Status convertScope(const otlp::Dictionary& dict, const otlp::ScopeProfiles& sp, const OtlpToPprofOptions& options,
                    GroupSink* sink) {
  if (dict.string_table_size() == 0 && sp.profiles_size() > 0)
    return Status::invalid("otlp: dictionary string_table is empty");
  const ScopeInfo info = readScope(sp, dict);
  if (auto order = zipOrder(sp, info); !order.empty())
    return convertGroup(dict, sp, order, info.default_sample_type, info.unreferenced_mappings, options, sink);
  for (int j = 0; j < sp.profiles_size(); ++j) {
    // A lone profile keeps the scope's default only if it names this profile's own type.
    const auto& p = sp.profiles(j);
    std::string dflt =
        dictString(dict, p.sample_type().type_strindex()) == info.default_sample_type ? info.default_sample_type : "";
    // Unreferenced mappings go with the first profile only, so they are not duplicated.
    const auto* extra = j == 0 ? info.unreferenced_mappings : nullptr;
    if (auto st = convertGroup(dict, sp, {j}, dflt, extra, options, sink); !st) return st;
  }
  return {};
}

// Runs convertScope over the request; `tag(first, r, s)` labels the results added for scope (r, s).
template <class Tag>
Status convertRequest(const otlp::Request& in, const OtlpToPprofOptions& options, GroupSink* sink, Tag tag) {
  for (int r = 0; r < in.resource_profiles_size(); ++r) {
    const auto& rp = in.resource_profiles(r);
    for (int s = 0; s < rp.scope_profiles_size(); ++s) {
      if (auto st = convertScope(in.dictionary(), rp.scope_profiles(s), options, sink); !st) return st;
      tag(r, s);
    }
  }
  return {};
}

}  // namespace

Status scopeToPprof(const otlp::Dictionary& dict, const otlp::ScopeProfiles& sp, std::vector<PprofFromOtlp>* out,
                    const OtlpToPprofOptions& options) {
  MessageSink sink(out);
  return convertScope(dict, sp, options, &sink);
}

Status otlpToPprof(const otlp::Request& in, std::vector<PprofFromOtlp>* out, const OtlpToPprofOptions& options) {
  MessageSink sink(out);
  size_t tagged = out->size();
  return convertRequest(in, options, &sink, [&](int r, int s) {
    for (; tagged < out->size(); ++tagged) {
      (*out)[tagged].resource_index = r;
      (*out)[tagged].scope_index = s;
    }
  });
}

Status otlpToPprofBytes(const otlp::Request& in, std::vector<EncodedPprof>* out, const OtlpToPprofOptions& options,
                        Encoding encoding, int level) {
  BytesSink sink(out, encoding, level);
  size_t tagged = out->size();
  return convertRequest(in, options, &sink, [&](int r, int s) {
    for (; tagged < out->size(); ++tagged) {
      (*out)[tagged].resource_index = r;
      (*out)[tagged].scope_index = s;
    }
  });
}

}  // namespace proflow::pprof
