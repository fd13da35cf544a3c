#include "core/formats/pprof/pprof_to_otlp.h"

#include <optional>
#include <unordered_map>

#include "core/model/dictionary_builder.h"
#include "core/util/index_set.h"
#include "core/formats/pprof/id_map.h"
#include "core/formats/pprof/pprof_ids.h"
#include "core/formats/pprof/pprof_view.h"
#include "core/util/utf8.h"

namespace proflow::pprof {
namespace {

using internal::IdMap;

struct LabelKey {
  int64_t key, str, num, unit;
  bool operator==(const LabelKey&) const = default;
};
uint64_t hashOf(const LabelKey& k) {
  uint64_t h = static_cast<uint64_t>(k.key) * 0x9E3779B97F4A7C15ull;
  h ^= static_cast<uint64_t>(k.str) + 0x7F4A7C15ull + (h << 6) + (h >> 2);
  h ^= static_cast<uint64_t>(k.num) + 0x9E3779B9ull + (h << 6) + (h >> 2);
  h ^= static_cast<uint64_t>(k.unit) + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull ^ (h >> 29);  // the set probes by the low bits
}

// What one distinct label says about trace correlation and time, worked out once (ids parsed from
// text are the costly part, and most labels repeat over many samples).
struct LabelInfo {
  int32_t attribute = 0;
  LinkRole role = LinkRole::kNone;
  int span_priority = 99;
  std::optional<IdBytes> id;  // parsed span/trace id
  std::optional<int64_t> timestamp;
};

// What the labels of one sample say, pointing into the LabelInfo of its labels.
struct SampleContext {
  const IdBytes *span = nullptr, *root_span = nullptr, *trace = nullptr;
  int span_priority = 99;
  std::optional<int64_t> timestamp;

  void note(const LabelInfo& info) {
    if (info.timestamp) timestamp = info.timestamp;
    if (!info.id) return;
    switch (info.role) {
      case LinkRole::kSpan:
        if (info.span_priority < span_priority) {
          span = &*info.id;
          span_priority = info.span_priority;
        }
        break;
      case LinkRole::kRootSpan:
        if (root_span == nullptr) root_span = &*info.id;
        break;
      case LinkRole::kTrace:
        if (trace == nullptr) trace = &*info.id;
        break;
      case LinkRole::kNone:
        break;
    }
  }
};

// The uncompressed pprof, for original_payload.
std::string serialized(const Profile& p) { return p.SerializeAsString(); }
std::string serialized(const ProfileView& p) { return std::string(p.raw()); }

// Written once for the protobuf Profile (pprofToOtlp) and the wire ProfileView (pprofBytesToOtlp).
template <class P>
class Converter {
 public:
  Converter(const P& p, const PprofToOtlpOptions& o, otlp::Request* out)
      : p_(p), o_(o), out_(out), dict_(out->mutable_dictionary()), strings_(p.string_table_size(), -1),
        mappings_(p.mapping_size()), functions_(p.function_size()), locations_(p.location_size()) {}

  void run() {
    dict_.reserve({.strings = static_cast<size_t>(p_.string_table_size()),
                   .functions = static_cast<size_t>(p_.function_size()),
                   .mappings = static_cast<size_t>(p_.mapping_size()),
                   .locations = static_cast<size_t>(p_.location_size()),
                   .stacks = static_cast<size_t>(p_.sample_size())});
    convertMappings();
    convertFunctions();
    convertLocations();
    auto* scope = addScope();
    std::vector<otlp::Profile*> profiles;
    for (int k = 0; k < p_.sample_type_size(); ++k) profiles.push_back(addProfile(scope, k));
    convertSamples(profiles);
    if (o_.keep_original_payload && !profiles.empty()) {
      profiles[0]->set_original_payload_format("pprof");
      if (!o_.original_payload.empty())
        profiles[0]->set_original_payload(std::string(o_.original_payload));
      else
        profiles[0]->set_original_payload(serialized(p_));
    }
  }

 private:
  std::string_view pstr(int64_t i) const { return p_.string_table(static_cast<int>(i)); }

  // A pprof string fit for OTLP (which requires UTF-8): invalid bytes become U+FFFD.
  std::string_view ustr(int64_t i) {
    std::string_view raw = pstr(i);
    if (isValidUtf8(raw)) return raw;
    auto [it, inserted] = sanitized_.try_emplace(i);
    if (inserted) it->second = sanitizeUtf8(raw);
    return it->second;
  }

  // pprof string index -> dictionary string index, interned on first use.
  int32_t s(int64_t i) {
    int32_t& slot = strings_[static_cast<size_t>(i)];
    if (slot < 0) slot = dict_.string(ustr(i));
    return slot;
  }

  void convertMappings() {
    IdMap referenced(p_.mapping_size());
    for (const auto& l : p_.location()) referenced.set(l.mapping_id(), 1);
    for (int i = 0; i < p_.mapping_size(); ++i) {
      const auto& m = p_.mapping(i);
      if (referenced.get(m.id()) < 0) {
        unreferenced_.push_back(i);
        continue;
      }
      otlp::Mapping om;
      om.set_memory_start(m.memory_start());
      om.set_memory_limit(m.memory_limit());
      om.set_file_offset(m.file_offset());
      om.set_filename_strindex(s(m.filename()));
      const std::string build_id = buildId(m);
      if (auto kind = classifyBuildId(build_id); kind != BuildIdKind::kNone)
        om.add_attribute_indices(dict_.stringAttribute(buildIdAttribute(kind), build_id));
      if (m.has_functions()) om.add_attribute_indices(dict_.boolAttribute(attr::kHasFunctions, true));
      if (m.has_filenames()) om.add_attribute_indices(dict_.boolAttribute(attr::kHasFilenames, true));
      if (m.has_line_numbers()) om.add_attribute_indices(dict_.boolAttribute(attr::kHasLineNumbers, true));
      if (m.has_inline_frames()) om.add_attribute_indices(dict_.boolAttribute(attr::kHasInlineFrames, true));
      mappings_.set(m.id(), dict_.mapping(om));
    }
  }

  // Some producers write the raw note bytes instead of hex: hex them so the id stays usable.
  template <class Mapping>
  std::string buildId(const Mapping& m) const {
    std::string_view raw = pstr(m.build_id());
    return isValidUtf8(raw) ? std::string(raw) : toHex(raw);
  }

  void convertFunctions() {
    for (const auto& f : p_.function()) {
      otlp::Function of;
      of.set_name_strindex(s(f.name()));
      of.set_system_name_strindex(s(f.system_name()));
      of.set_filename_strindex(s(f.filename()));
      of.set_start_line(f.start_line());
      functions_.set(f.id(), dict_.function(of));
    }
  }

  void convertLocations() {
    for (const auto& l : p_.location()) {
      otlp::Location ol;
      if (l.mapping_id() != 0) ol.set_mapping_index(mappings_.get(l.mapping_id()));
      ol.set_address(l.address());
      for (const auto& line : l.line()) {
        auto* ln = ol.add_lines();
        if (line.function_id() != 0) ln->set_function_index(functions_.get(line.function_id()));
        ln->set_line(line.line());
        ln->set_column(line.column());
      }
      if (l.is_folded()) ol.add_attribute_indices(dict_.boolAttribute(attr::kIsFolded, true));
      locations_.set(l.id(), dict_.location(ol));
    }
  }

  otlp::ScopeProfiles* addScope() {
    otlp::ResourceProfiles* rp;
    if (o_.resource_index >= 0) {
      rp = out_->mutable_resource_profiles(o_.resource_index);
    } else {
      rp = out_->add_resource_profiles();
      for (const auto& [k, v] : o_.resource_attributes) {
        auto* kv = rp->mutable_resource()->add_attributes();
        kv->set_key(k);
        kv->mutable_value()->set_string_value(v);
      }
    }
    auto* sp = rp->add_scope_profiles();
    sp->mutable_scope()->set_name(o_.scope_name);
    sp->mutable_scope()->set_version(o_.scope_version);
    auto* order = sp->mutable_scope()->add_attributes();
    order->set_key(std::string(attr::kSampleTypeOrder));
    auto* arr = order->mutable_value()->mutable_array_value();
    for (int k = 0; k < p_.sample_type_size(); ++k) arr->add_values()->set_int_value(k);
    if (!unreferenced_.empty()) addUnreferencedMappings(sp->mutable_scope()->add_attributes());
    if (p_.default_sample_type() != 0) {
      auto* d = sp->mutable_scope()->add_attributes();
      d->set_key(std::string(attr::kDefaultSampleType));
      d->mutable_value()->set_string_value(std::string(ustr(p_.default_sample_type())));
    }
    return sp;
  }

  void addUnreferencedMappings(otlp::KeyValue* kv) {
    kv->set_key(std::string(attr::kUnreferencedMappings));
    auto* arr = kv->mutable_value()->mutable_array_value();
    for (int i : unreferenced_) {
      const auto* m = &p_.mapping(i);
      auto* fields = arr->add_values()->mutable_kvlist_value();
      auto add = [&](const char* key) {
        auto* f = fields->add_values();
        f->set_key(key);
        return f->mutable_value();
      };
      add("memory_start")->set_int_value(static_cast<int64_t>(m->memory_start()));
      add("memory_limit")->set_int_value(static_cast<int64_t>(m->memory_limit()));
      add("file_offset")->set_int_value(static_cast<int64_t>(m->file_offset()));
      add("filename")->set_string_value(std::string(ustr(m->filename())));
      add("build_id")->set_string_value(buildId(*m));
      add("has_functions")->set_bool_value(m->has_functions());
      add("has_filenames")->set_bool_value(m->has_filenames());
      add("has_line_numbers")->set_bool_value(m->has_line_numbers());
      add("has_inline_frames")->set_bool_value(m->has_inline_frames());
    }
  }

  void addStringAttr(otlp::Profile* prof, std::string_view key, int64_t strindex) {
    if (strindex != 0 && !pstr(strindex).empty())
      prof->add_attribute_indices(dict_.stringAttribute(key, ustr(strindex)));
  }

  otlp::Profile* addProfile(otlp::ScopeProfiles* sp, int k) {
    auto* prof = sp->add_profiles();
    prof->mutable_sample_type()->set_type_strindex(s(p_.sample_type(k).type()));
    prof->mutable_sample_type()->set_unit_strindex(s(p_.sample_type(k).unit()));
    prof->set_time_unix_nano(static_cast<uint64_t>(p_.time_nanos()));
    prof->set_duration_nano(static_cast<uint64_t>(p_.duration_nanos()));
    if (p_.has_period_type()) {
      prof->mutable_period_type()->set_type_strindex(s(p_.period_type().type()));
      prof->mutable_period_type()->set_unit_strindex(s(p_.period_type().unit()));
    }
    prof->set_period(p_.period());
    addStringAttr(prof, attr::kDropFrames, p_.drop_frames());
    addStringAttr(prof, attr::kKeepFrames, p_.keep_frames());
    addStringAttr(prof, attr::kDocUrl, p_.doc_url());
    if (p_.comment_size() > 0) prof->add_attribute_indices(commentsAttribute());
    return prof;
  }

  int32_t commentsAttribute() {
    otlp::AnyValue v;
    auto* arr = v.mutable_array_value();
    for (int64_t c : p_.comment()) arr->add_values()->set_string_value(std::string(ustr(c)));
    return dict_.attribute(attr::kComment, v);
  }

  // Position of the label's LabelInfo (added on first sight).
  template <class Label>
  int32_t labelSlot(const Label& l) {
    LabelKey key{l.key(), l.str(), l.str() != 0 ? 0 : l.num(), l.str() != 0 ? 0 : l.num_unit()};
    int32_t slot = label_set_.intern(
        hashOf(key), [&](int32_t i) { return label_keys_[static_cast<size_t>(i)] == key; },
        [&] {
          label_keys_.push_back(key);
          label_infos_.push_back(describeLabel(l));
          return static_cast<int32_t>(label_keys_.size() - 1);
        });
    return slot;
  }

  template <class Label>
  LabelInfo describeLabel(const Label& l) {
    LabelInfo info;
    // Same rule as pprof readers: a label with a string is a string label, otherwise numeric.
    const bool is_str = l.str() != 0;
    info.attribute = is_str ? dict_.stringAttribute(ustr(l.key()), ustr(l.str()))
                            : dict_.intAttribute(ustr(l.key()), l.num(), ustr(l.num_unit()));
    std::string_view key = pstr(l.key());
    if (!is_str && key == kTimestampLabel) info.timestamp = l.num();
    if (!o_.trace_links) return info;
    info.role = linkRoleOf(key);
    switch (info.role) {
      case LinkRole::kSpan:
        info.span_priority = spanKeyPriority(key);
        [[fallthrough]];
      case LinkRole::kRootSpan:
        info.id = is_str ? parseSpanId(pstr(l.str())) : spanIdFromNumber(l.num());
        break;
      case LinkRole::kTrace:
        info.id = is_str ? parseTraceId(pstr(l.str())) : traceIdFromNumber(l.num());
        break;
      case LinkRole::kNone:
        break;
    }
    return info;
  }

  int32_t linkIndex(const SampleContext& ctx) {
    const IdBytes* span = ctx.span ? ctx.span : ctx.root_span;
    if (span == nullptr && ctx.trace == nullptr) return 0;
    static constexpr char kZeros[16] = {};
    return dict_.link(ctx.trace ? ctx.trace->view() : std::string_view(kZeros, 16),
                      span ? span->view() : std::string_view(kZeros, 8));
  }

  void convertSamples(const std::vector<otlp::Profile*>& profiles) {
    for (auto* prof : profiles) prof->mutable_samples()->Reserve(p_.sample_size());
    std::vector<int32_t> stack;
    std::vector<int32_t> attrs, slots;
    label_infos_.reserve(256);
    for (const auto& smp : p_.sample()) {
      stack.clear();
      for (uint64_t id : smp.location_id()) stack.push_back(locations_.get(id));
      int32_t stack_index = dict_.stack(stack);
      attrs.clear();
      slots.clear();
      for (const auto& l : smp.label()) slots.push_back(labelSlot(l));
      // Only now: labelSlot may have grown label_infos_, and ctx points into it.
      SampleContext ctx;
      for (int32_t slot : slots) {
        const LabelInfo& info = label_infos_[static_cast<size_t>(slot)];
        attrs.push_back(info.attribute);
        ctx.note(info);
      }
      int32_t link = o_.trace_links ? linkIndex(ctx) : 0;
      for (size_t k = 0; k < profiles.size(); ++k) {
        auto* os = profiles[k]->add_samples();
        os->set_stack_index(stack_index);
        os->mutable_attribute_indices()->Add(attrs.begin(), attrs.end());
        os->set_link_index(link);
        os->add_values(smp.value(static_cast<int>(k)));
        if (ctx.timestamp) os->add_timestamps_unix_nano(static_cast<uint64_t>(*ctx.timestamp));
      }
    }
  }

  const P& p_;
  const PprofToOtlpOptions& o_;
  otlp::Request* out_;
  DictionaryBuilder dict_;
  std::vector<int32_t> strings_;
  IdMap mappings_, functions_, locations_;
  // Distinct labels seen so far and what each says (most samples repeat a few labels).
  IndexSet label_set_;
  std::vector<LabelKey> label_keys_;
  std::vector<LabelInfo> label_infos_;
  std::vector<int> unreferenced_;  // mapping positions
  std::unordered_map<int64_t, std::string> sanitized_;
};

// The guard against small inputs that convert huge (sample types are already bounded by
// validateProfile's ProfileLimits): the estimate of what conversion allocates checked with the caller
// (`held_bytes`: input the caller keeps meanwhile).
template <class P>
Status checkAmplification(const P& p, const PprofToOtlpOptions& options, size_t held_bytes) {
  const auto types = static_cast<size_t>(p.sample_type_size());
  if (!options.reserve_memory) return {};
  size_t location_refs = 0, label_refs = 0;
  for (const auto& smp : p.sample()) {
    location_refs += static_cast<size_t>(smp.location_id().size());
    label_refs += static_cast<size_t>(smp.label_size());
  }
  const size_t dictionary = static_cast<size_t>(p.location_size()) + static_cast<size_t>(p.function_size()) +
                            static_cast<size_t>(p.mapping_size()) + static_cast<size_t>(p.string_table_size());
  return options.reserve_memory(held_bytes + estimateConversionBytes(static_cast<size_t>(p.sample_size()), types,
                                                                     location_refs, label_refs, dictionary));
}

template <class P>
Status convertValid(const P& p, const PprofToOtlpOptions& options, otlp::Request* out, size_t held_bytes = 0) {
  if (auto st = checkAmplification(p, options, held_bytes); !st) return st;
  const uint64_t total = static_cast<uint64_t>(p.sample_size()) * static_cast<uint64_t>(p.sample_type_size());
  if (total > options.max_otlp_samples)
    return Status::tooLarge("pprof: " + std::to_string(p.sample_size()) + " samples x " +
                            std::to_string(p.sample_type_size()) + " sample types = " + std::to_string(total) +
                            " OTLP samples, above the limit of " + std::to_string(options.max_otlp_samples));
  if (options.resource_index >= out->resource_profiles_size())
    return Status::invalid("pprof: resource_index " + std::to_string(options.resource_index) + " out of range");
  Converter<P>(p, options, out).run();
  return {};
}

}  // namespace

size_t estimateConversionBytes(size_t samples, size_t sample_types, size_t location_refs, size_t label_refs,
                               size_t dictionary_entries) {
  // Arena sizes, rounded up: an OTLP Sample with one value ~96 bytes, 4 per attribute index (copied
  // into every profile), a stack ~48 bytes + 4 per location, a dictionary entry with its interning
  // slot and the converter's id maps ~160 bytes (measured: a location, its function and their name
  // string take ~113 bytes each at the conversion's peak).
  const size_t per_otlp_sample = 96;
  return samples * sample_types * per_otlp_sample + label_refs * sample_types * 4 + samples * 48 +
         location_refs * 4 + dictionary_entries * 160;
}

Status pprofToOtlp(const Profile& p, const PprofToOtlpOptions& options, otlp::Request* out) {
  if (auto st = validateProfile(p); !st) return st;
  return convertValid(p, options, out);
}

Status pprofBytesToOtlp(std::string_view data, const PprofToOtlpOptions& options, otlp::Request* out,
                        const DecodeOptions& decode) {
  // Read the wire bytes in place: no Profile messages to build and tear down.
  std::string raw;
  if (auto st = decompressProfile(data, &raw, decode.limits); !st) return st;
  ProfileView view;
  if (auto st = parseProfileView(raw, &view); !st) return st;
  if (auto st = validateProfile(view, decode.profile_limits); !st) return st;  // the converter indexes tables without checks
  if (!options.keep_original_payload || !options.original_payload.empty())
    return convertValid(view, options, out, raw.size());
  PprofToOtlpOptions with_payload = options;
  with_payload.original_payload = data;
  return convertValid(view, with_payload, out, raw.size() + data.size());
}

Status reserveConversionMemory(const Profile& p, const PprofToOtlpOptions& options, size_t held_bytes) {
  return checkAmplification(p, options, held_bytes);
}

Status reserveConversionMemory(const ProfileView& p, const PprofToOtlpOptions& options, size_t held_bytes) {
  return checkAmplification(p, options, held_bytes);
}

}  // namespace proflow::pprof
