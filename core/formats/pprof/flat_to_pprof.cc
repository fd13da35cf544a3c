#include "core/formats/pprof/flat_to_pprof.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "core/flat/flat_attributes.h"
#include "core/flat/wire.h"
#include "core/formats/pprof/pprof_ids.h"
#include "core/formats/pprof/profile_draft.h"
#include "core/util/index_set.h"
#include "core/util/saturating.h"

namespace proflow::pprof {
namespace {

using internal::ProfileDraft;

Status dangling(const char* what, int32_t index, size_t size) {
  return Status::invalid(std::string("otlp: ") + what + " index " + std::to_string(index) +
                         " out of range (table has " + std::to_string(size) + " entries)");
}

template <class T>
bool inRange(const std::vector<T>& table, int32_t i) {
  return i >= 0 && static_cast<size_t>(i) < table.size();
}

// Arrays and key-value lists are kept encoded in the flat model; the few the conversion reads are
// read straight from their wire bytes (parsing them as protobuf messages was 13% of a small
// profile's round trip). One AnyValue, as much of it as the conversion needs:
struct AnyScalar {
  uint32_t field = 0;  // which AnyValue member is set (field number), 0: none
  uint64_t num = 0;    // bool (2), int (3), string_value_strindex (8)
  std::string_view bytes;  // string (1), array (5), kvlist (6), bytes (7)

  int64_t intValue() const { return field == 3 ? static_cast<int64_t>(num) : 0; }
  bool boolValue() const { return field == 2 && num != 0; }
  std::string_view text(const flat::Batch& b) const {
    return field == 1 ? bytes : b.string(field == 8 ? static_cast<int32_t>(num) : 0);
  }
};

AnyScalar readAny(std::string_view any_value) {
  AnyScalar a;
  flat::wire::Reader r(any_value);
  uint32_t field, wire_type;
  while (r.next(&field, &wire_type)) {
    if (wire_type == flat::wire::kLen) {
      a.field = field, a.bytes = r.bytes();
    } else if (wire_type == flat::wire::kVarint) {
      a.field = field, a.num = r.varint();
    } else {
      r.skip(wire_type, field);
    }
  }
  return a;
}

// Calls fn(bytes) for each field-1 message of `message` (ArrayValue.values, KeyValueList.values).
template <class Fn>
void forEachElement(std::string_view message, Fn&& fn) {
  flat::wire::Reader r(message);
  uint32_t field, wire_type;
  while (r.next(&field, &wire_type)) {
    if (field == 1 && wire_type == flat::wire::kLen)
      fn(r.bytes());
    else
      r.skip(wire_type, field);
  }
}

struct ScopeInfo {
  std::vector<int64_t> order;  // pprof.scope.sample_type_order
  std::string default_sample_type;
  std::string_view unreferenced_mappings;  // encoded ArrayValue of kvlists
  bool has_unreferenced_mappings = false;
};

ScopeInfo readScope(const flat::Batch& b, const flat::Scope& scope) {
  ScopeInfo info;
  flat::forEachKeyValue(b, scope.attributes, [&](std::string_view key, const flat::KeyValue& kv) {
    const bool array = kv.value.kind == flat::ValueKind::kArray;
    if (key == attr::kSampleTypeOrder && array) {
      forEachElement(b.view(kv.value.bytes), [&](std::string_view v) { info.order.push_back(readAny(v).intValue()); });
    } else if (key == attr::kUnreferencedMappings && array) {
      info.unreferenced_mappings = b.view(kv.value.bytes);
      info.has_unreferenced_mappings = true;
    } else if (key == attr::kDefaultSampleType) {
      info.default_sample_type = kv.value.kind == flat::ValueKind::kString     ? b.view(kv.value.bytes)
                                 : kv.value.kind == flat::ValueKind::kStrindex ? b.string(kv.value.strindex())
                                                                               : std::string_view();
    }
  });
  return info;
}

template <class T>
bool sameSlice(const std::vector<T>& column, flat::Range a, flat::Range b) {
  if (a.begin == b.begin && a.size == b.size) return true;  // shared (pprofToFlat) or equal ranges
  auto x = flat::Batch::slice(column, a), y = flat::Batch::slice(column, b);
  return std::equal(x.begin(), x.end(), y.begin(), y.end());
}

bool sameIdentity(const flat::Batch& b, uint32_t r1, uint32_t r2) {
  const auto& s = b.samples;
  return s.stack_index[r1] == s.stack_index[r2] && s.link_index[r1] == s.link_index[r2] &&
         sameSlice(b.indices, s.attributes[r1], s.attributes[r2]) &&
         sameSlice(b.timestamps, s.timestamps[r1], s.timestamps[r2]);
}

// Profiles of the scope in original sample-type order when they can be zipped into one pprof.
std::vector<uint32_t> zipOrder(const flat::Batch& b, const flat::Scope& scope, const ScopeInfo& info) {
  const uint32_t n = scope.profiles.size;
  if (n < 2 || info.order.size() != n) return {};
  std::vector<uint32_t> by_type(n, flat::kNone);  // original type index -> profile index
  for (uint32_t j = 0; j < n; ++j) {
    int64_t t = info.order[j];
    if (t < 0 || t >= n || by_type[static_cast<size_t>(t)] != flat::kNone) return {};
    by_type[static_cast<size_t>(t)] = scope.profiles.begin + j;
  }
  const flat::Range first = b.profiles[scope.profiles.begin].samples;
  for (uint32_t j = 1; j < n; ++j) {
    const flat::Range other = b.profiles[scope.profiles.begin + j].samples;
    if (other.size != first.size) return {};
    for (uint32_t i = 0; i < first.size; ++i)
      if (!sameIdentity(b, first.begin + i, other.begin + i)) return {};
  }
  return by_type;
}

// Builds one pprof draft from the batch's dictionary: interns strings, assigns pprof ids to the
// mappings, functions and locations on first use.
class DraftBuilder {
 public:
  DraftBuilder(const flat::Batch& b, ProfileDraft* out)
      : b_(b), out_(out), dict_strings_(b.strings.size(), -1), location_ids_(b.locations.size(), 0),
        function_ids_(b.functions.size(), 0), mapping_ids_(b.mappings.size(), 0) {
    str("");
  }

  int64_t str(std::string_view s) {
    auto& table = out_->strings;
    return strings_.intern(
        std::hash<std::string_view>{}(s), [&](int32_t i) { return table[static_cast<size_t>(i)] == s; },
        [&] {
          table.push_back(out_->pool.add(s));
          return static_cast<int32_t>(table.size() - 1);
        });
  }
  // Sizes the string table and its index for `n` strings, so interning does not regrow them.
  void reserveStrings(size_t n) {
    strings_.reserve(n);
    out_->strings.reserve(n);
  }
  int64_t dictStr(int32_t index) {
    if (!inRange(dict_strings_, index)) return str("");
    int64_t& slot = dict_strings_[static_cast<size_t>(index)];
    if (slot < 0) slot = str(b_.string(index));
    return slot;
  }

  struct Attr {
    std::string_view key, text, unit;
    bool is_int = false, is_str = false;
    int64_t num = 0;
    std::string formatted;  // a double written as text
  };
  Status attribute(int32_t index, Attr* a) const {
    if (!inRange(b_.attributes, index)) return dangling("attribute", index, b_.attributes.size());
    const flat::Attribute& kv = b_.attributes[static_cast<size_t>(index)];
    a->key = b_.string(kv.key_strindex);
    a->unit = b_.string(kv.unit_strindex);
    a->is_int = a->is_str = false;
    const flat::Value& v = kv.value;
    switch (v.kind) {
      case flat::ValueKind::kInt: a->is_int = true, a->num = v.intValue(); break;
      case flat::ValueKind::kString: a->is_str = true, a->text = b_.view(v.bytes); break;
      case flat::ValueKind::kStrindex: a->is_str = true, a->text = b_.string(v.strindex()); break;
      case flat::ValueKind::kBool: a->is_str = true, a->text = v.boolValue() ? "true" : "false"; break;
      case flat::ValueKind::kDouble: {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", v.doubleValue());
        a->is_str = true, a->formatted = buf, a->text = a->formatted;
        break;
      }
      default: break;  // arrays, maps, bytes: no pprof label form
    }
    return {};
  }

  Status addStack(int32_t stack_index) {
    if (!inRange(b_.stacks, stack_index)) return dangling("stack", stack_index, b_.stacks.size());
    for (int32_t li : b_.indexList(b_.stacks[static_cast<size_t>(stack_index)].locations)) {
      uint64_t id = inRange(location_ids_, li) ? location_ids_[static_cast<size_t>(li)] : 0;
      if (id == 0)
        if (auto st = location(li, &id); !st) return st;
      out_->location_ids.push_back(static_cast<uint32_t>(id));  // position + 1
    }
    return {};
  }

  // The events of a split sample, after their values: the timestamp label's key and unit strings
  // are interned at the first event, where a label of their own would have interned them.
  void addEvents(std::span<const uint64_t> nanos) {
    if (out_->event_key == 0) {
      out_->event_key = str(kTimestampLabel);
      out_->event_unit = str("nanoseconds");
    }
    for (uint64_t t : nanos) out_->addEvent(static_cast<int64_t>(t));
  }

  Status addLabels(uint32_t row) {
    bool has_link_labels = false;
    for (int32_t ai : b_.indexList(b_.samples.attributes[row])) {
      const CachedLabel* c = nullptr;
      if (auto st = label(ai, &c); !st) return st;
      has_link_labels |= c->is_link;
      if (c->present) out_->labels.push_back(view::Label{c->key, c->str, c->num, c->unit});
    }
    const int32_t link_index = b_.samples.link_index[row];
    if (link_index == 0 || has_link_labels) return {};
    if (!inRange(b_.links, link_index)) return dangling("link", link_index, b_.links.size());
    const flat::Link& link = b_.links[static_cast<size_t>(link_index)];
    // A link from a non-pprof source: keep it as the labels pprof-based tools understand.
    const std::pair<const char*, std::string_view> ids[] = {{"span_id", b_.view(link.span_id)},
                                                            {"trace_id", b_.view(link.trace_id)}};
    for (auto [key, id] : ids) {
      if (id.find_first_not_of('\0') == std::string_view::npos) continue;
      out_->labels.push_back(view::Label{str(key), str(toHex(id)), 0, 0});
    }
    return {};
  }

  Status addProfileAttributes(const flat::Profile& p) {
    Attr a;
    for (int32_t ai : b_.indexList(p.attributes)) {
      if (auto st = attribute(ai, &a); !st) return st;
      if (a.key == attr::kDropFrames && a.is_str) out_->drop_frames = str(a.text);
      if (a.key == attr::kKeepFrames && a.is_str) out_->keep_frames = str(a.text);
      if (a.key == attr::kDocUrl && a.is_str) out_->doc_url = str(a.text);
      if (a.key != attr::kComment) continue;
      const flat::Value& v = b_.attributes[static_cast<size_t>(ai)].value;
      if (v.kind == flat::ValueKind::kArray) {
        forEachElement(b_.view(v.bytes),
                       [&](std::string_view c) { out_->comment.push_back(str(readAny(c).text(b_))); });
      } else if (a.is_str) {
        out_->comment.push_back(str(a.text));
      }
    }
    return {};
  }

  // Mappings in dictionary order (the producer's order); closes the last sample.
  void finish() {
    std::vector<size_t> order(mappings_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return used_mappings_[x] < used_mappings_[y]; });
    for (size_t i : order) out_->mappings.push_back(mappings_[i]);
    mappings_.clear();
    out_->closeSample();
  }

 private:
  struct CachedLabel {
    bool resolved = false, present = false, is_link = false;
    int64_t key = 0, str = 0, num = 0, unit = 0;
  };

  // Sample attributes repeat across samples: resolve each one to its label once.
  Status label(int32_t index, const CachedLabel** out) {
    if (inRange(labels_, index) && labels_[static_cast<size_t>(index)].resolved) {
      *out = &labels_[static_cast<size_t>(index)];
      return {};
    }
    Attr a;
    if (auto st = attribute(index, &a); !st) return st;
    if (labels_.size() <= static_cast<size_t>(index)) labels_.resize(b_.attributes.size());
    CachedLabel& c = labels_[static_cast<size_t>(index)];
    c.resolved = true;
    c.is_link = linkRoleOf(a.key) != LinkRole::kNone;
    c.present = a.is_int || a.is_str;
    c.key = str(a.key);
    if (a.is_int) {
      c.num = a.num;
      if (!a.unit.empty()) c.unit = str(a.unit);
    } else if (a.is_str) {
      c.str = str(a.text);
    }
    *out = &c;
    return {};
  }

  Status mapping(int32_t index, uint64_t* id) {
    if (index == 0) return (*id = 0, Status{});
    if (!inRange(b_.mappings, index)) return dangling("mapping", index, b_.mappings.size());
    uint64_t& slot = mapping_ids_[static_cast<size_t>(index)];
    if (slot == 0) {
      const flat::Mapping& fm = b_.mappings[static_cast<size_t>(index)];
      view::Mapping m;
      slot = mappings_.size() + 1;
      m.id_ = slot;
      m.memory_start_ = fm.memory_start;
      m.memory_limit_ = fm.memory_limit;
      m.file_offset_ = fm.file_offset;
      m.filename_ = str(b_.string(fm.filename_strindex));
      Attr a;
      for (int32_t ai : b_.indexList(fm.attributes)) {
        if (auto st = attribute(ai, &a); !st) return st;
        if (a.key == attr::kBuildIdGnu || a.key == attr::kBuildIdGo || a.key == attr::kBuildIdOther) {
          if (m.build_id_ == 0 && a.is_str) m.build_id_ = str(a.text);
        } else if (a.key == attr::kHasFunctions) {
          m.has_functions_ = a.text == "true";
        } else if (a.key == attr::kHasFilenames) {
          m.has_filenames_ = a.text == "true";
        } else if (a.key == attr::kHasLineNumbers) {
          m.has_line_numbers_ = a.text == "true";
        } else if (a.key == attr::kHasInlineFrames) {
          m.has_inline_frames_ = a.text == "true";
        }
      }
      mappings_.push_back(m);
      used_mappings_.push_back(index);
    }
    *id = slot;
    return {};
  }

  Status function(int32_t index, uint64_t* id) {
    if (index == 0) return (*id = 0, Status{});
    if (!inRange(b_.functions, index)) return dangling("function", index, b_.functions.size());
    uint64_t& slot = function_ids_[static_cast<size_t>(index)];
    if (slot == 0) {
      const flat::Function& ff = b_.functions[static_cast<size_t>(index)];
      view::Function f;
      f.id_ = out_->functions.size() + 1;
      f.name_ = dictStr(ff.name_strindex);
      f.system_name_ = dictStr(ff.system_name_strindex);
      f.filename_ = dictStr(ff.filename_strindex);
      f.start_line_ = ff.start_line;
      slot = f.id_;
      out_->functions.push_back(f);
    }
    *id = slot;
    return {};
  }

  Status location(int32_t index, uint64_t* id) {
    if (!inRange(b_.locations, index)) return dangling("location", index, b_.locations.size());
    uint64_t& slot = location_ids_[static_cast<size_t>(index)];
    if (slot == 0) {
      const flat::Location& fl = b_.locations[static_cast<size_t>(index)];
      ProfileDraft::Location l;
      if (auto st = mapping(fl.mapping_index, &l.mapping_id); !st) return st;
      l.address = fl.address;
      l.lines.offset = static_cast<uint32_t>(out_->lines.size());
      for (const flat::Line& line : flat::Batch::slice(b_.lines, fl.lines)) {
        view::Line ln;
        if (auto st = function(line.function_index, &ln.function_id_); !st) return st;
        ln.line_ = line.line;
        ln.column_ = line.column;
        out_->lines.push_back(ln);
      }
      l.lines.count = static_cast<uint32_t>(out_->lines.size() - l.lines.offset);
      Attr a;
      for (int32_t ai : b_.indexList(fl.attributes)) {
        if (auto st = attribute(ai, &a); !st) return st;
        if (a.key == attr::kIsFolded) l.is_folded = a.text == "true";
      }
      slot = static_cast<uint64_t>(out_->locations.size()) + 1;
      l.id = slot;
      out_->locations.push_back(l);
    }
    *id = slot;
    return {};
  }

  const flat::Batch& b_;
  ProfileDraft* out_;
  IndexSet strings_;  // over out_->strings
  std::vector<int64_t> dict_strings_;
  std::vector<uint64_t> location_ids_, function_ids_, mapping_ids_;
  std::vector<int32_t> used_mappings_;
  std::vector<view::Mapping> mappings_;
  std::vector<CachedLabel> labels_;
};

int64_t sum(std::span<const int64_t> values) {
  int64_t total = 0;
  for (int64_t v : values) total = saturatingAdd(total, v);  // values are the sender's: no overflow
  return total;
}

// Converts a group of profiles (in pprof sample-type order) into one draft.
class GroupConverter {
 public:
  GroupConverter(const flat::Batch& b, const OtlpToPprofOptions& o, ProfileDraft* out)
      : b_(b), o_(o), out_(out), builder_(b, out) {}

  // `unreferenced`: the encoded proflow.pprof.unreferenced_mappings array, or nullptr.
  Status run(const std::vector<uint32_t>& profiles, std::string_view default_type,
             const std::string_view* unreferenced) {
    for (uint32_t p : profiles) profiles_.push_back(&b_.profiles[p]);
    if (auto st = header(); !st) return st;
    if (!default_type.empty()) out_->default_sample_type = builder_.str(default_type);
    const uint32_t n = profiles_[0]->samples.size;
    reserveOutput(n);
    for (uint32_t i = 0; i < n; ++i)
      if (auto st = sample(i); !st) return Status::invalid(st.message() + " (sample " + std::to_string(i) + ")");
    builder_.finish();
    if (unreferenced != nullptr) addMappings(*unreferenced);
    return {};
  }

 private:
  Status header() {
    for (const flat::Profile* p : profiles_) {
      auto& vt = out_->sample_type.emplace_back();
      std::string_view type = b_.string(p->sample_type.type_strindex), unit = b_.string(p->sample_type.unit_strindex);
      // A producer that only sends timestamps may leave the type unset: its events are counts.
      if (type.empty() && unit.empty()) type = "samples", unit = "count";
      vt.type_ = builder_.str(type);
      vt.unit_ = builder_.str(unit);
    }
    const flat::Profile& first = *profiles_[0];
    out_->time_nanos = static_cast<int64_t>(first.time_unix_nano);
    out_->duration_nanos = static_cast<int64_t>(first.duration_nano);
    if (first.period_type.present) {
      out_->has_period_type = true;
      out_->period_type.type_ = builder_.str(b_.string(first.period_type.type_strindex));
      out_->period_type.unit_ = builder_.str(b_.string(first.period_type.unit_strindex));
    }
    out_->period = first.period;
    return builder_.addProfileAttributes(first);
  }

  // Mappings pprofToFlat kept by value because no location referred to them.
  void addMappings(std::string_view list) {
    uint64_t next_id = 0;
    for (const auto& m : out_->mappings) next_id = std::max(next_id, m.id_);
    forEachElement(list, [&](std::string_view element) {
      view::Mapping m;
      m.id_ = ++next_id;
      const AnyScalar item = readAny(element);
      forEachElement(item.field == 6 ? item.bytes : std::string_view(), [&](std::string_view key_value) {
        std::string_view k;
        AnyScalar v;
        flat::wire::Reader r(key_value);
        uint32_t field, wire_type;
        while (r.next(&field, &wire_type)) {
          if (field == 1 && wire_type == flat::wire::kLen) k = r.bytes();
          else if (field == 2 && wire_type == flat::wire::kLen) v = readAny(r.bytes());
          else r.skip(wire_type, field);
        }
        if (k == "memory_start") m.memory_start_ = static_cast<uint64_t>(v.intValue());
        if (k == "memory_limit") m.memory_limit_ = static_cast<uint64_t>(v.intValue());
        if (k == "file_offset") m.file_offset_ = static_cast<uint64_t>(v.intValue());
        if (k == "filename") m.filename_ = builder_.str(v.text(b_));
        if (k == "build_id") m.build_id_ = builder_.str(v.text(b_));
        if (k == "has_functions") m.has_functions_ = v.boolValue();
        if (k == "has_filenames") m.has_filenames_ = v.boolValue();
        if (k == "has_line_numbers") m.has_line_numbers_ = v.boolValue();
        if (k == "has_inline_frames") m.has_inline_frames_ = v.boolValue();
      });
      out_->mappings.push_back(m);
    });
  }

  // Sizes the draft's arrays for what sample() will append, so a profile of many events (one pprof
  // sample each, e.g. from JFR) does not grow them by copying. Dangling indices count as empty:
  // sample() reports them.
  void reserveOutput(uint32_t n) {
    size_t events = 0, location_ids = 0, labels = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t row = profiles_[0]->samples.begin + i;
      // A split sample: one time and one value per sample type for each event.
      if (o_.timestamps == OtlpToPprofOptions::Timestamps::kLabel) events += b_.samples.timestamps[row].size;
      const int32_t stack = b_.samples.stack_index[row];
      location_ids += inRange(b_.stacks, stack) ? b_.stacks[static_cast<size_t>(stack)].locations.size : 0;
      labels += b_.samples.attributes[row].size;
    }
    // Strings: this group's share of the batch's strings and attribute values (each group of a
    // merged batch interns only its own, so a batch of many groups does not size each for all).
    const size_t rows = b_.samples.stack_index.size();
    const size_t group_rows = std::min(rows, size_t{n} * profiles_.size());
    if (rows > 0) builder_.reserveStrings((b_.strings.size() + b_.attributes.size()) * group_rows / rows);
    out_->samples.reserve(n);
    out_->location_ids.reserve(location_ids);
    out_->values.reserve((n + events) * profiles_.size());
    out_->labels.reserve(labels);
    out_->event_times.reserve(events);
  }

  bool hasTimestampAttribute(uint32_t row) const {
    for (int32_t ai : b_.indexList(b_.samples.attributes[row])) {
      if (!inRange(b_.attributes, ai)) continue;
      if (b_.string(b_.attributes[static_cast<size_t>(ai)].key_strindex) == kTimestampLabel) return true;
    }
    return false;
  }

  std::span<const int64_t> values(size_t k, uint32_t i) const {
    return flat::Batch::slice(b_.values, b_.samples.values[profiles_[k]->samples.begin + i]);
  }

  Status sample(uint32_t i) {
    const uint32_t base = profiles_[0]->samples.begin + i;
    auto timestamps = flat::Batch::slice(b_.timestamps, b_.samples.timestamps[base]);
    const size_t events = timestamps.size();
    out_->beginSample();
    if (auto st = builder_.addStack(b_.samples.stack_index[base]); !st) return st;
    if (auto st = builder_.addLabels(base); !st) return st;
    const bool split = events > 0 && o_.timestamps == OtlpToPprofOptions::Timestamps::kLabel &&
                       !(events == 1 && hasTimestampAttribute(base));
    if (!split) {
      // Aggregated: timestamps without values count one event each.
      for (size_t k = 0; k < profiles_.size(); ++k) {
        auto v = values(k, i);
        const uint32_t row = profiles_[k]->samples.begin + i;
        out_->values.push_back(v.empty() ? static_cast<int64_t>(b_.samples.timestamps[row].size) : sum(v));
      }
      return {};
    }
    // One pprof sample per event (same stack and labels), each labelled with its timestamp. The
    // draft holds the events' values event by event, one per profile: profile k's value of event e
    // is at e * per_event + k. A profile gives each event its own value, 1 to each if it has no
    // values, or (values that do not pair with the events) their sum to the first event and 0 to
    // the others.
    const size_t per_event = profiles_.size(), first = out_->values.size();
    out_->values.resize(first + events * per_event);
    int64_t* out = out_->values.data() + first;
    for (size_t k = 0; k < per_event; ++k) {
      const auto v = values(k, i);
      if (v.size() == events) {
        for (size_t e = 0; e < events; ++e) out[e * per_event + k] = v[e];
      } else if (v.empty()) {
        for (size_t e = 0; e < events; ++e) out[e * per_event + k] = 1;
      } else {
        out[k] = sum(v);
      }
    }
    builder_.addEvents(timestamps);
    return {};
  }

  const flat::Batch& b_;
  const OtlpToPprofOptions& o_;
  ProfileDraft* out_;
  DraftBuilder builder_;
  std::vector<const flat::Profile*> profiles_;
};

using Sink = std::function<Status(const ProfileDraft&, std::vector<int>)>;

Status convertGroup(const flat::Batch& b, const flat::Scope& scope, std::vector<uint32_t> profiles,
                    std::string_view default_type, const std::string_view* unreferenced,
                    const OtlpToPprofOptions& options, const Sink& sink) {
  ProfileDraft draft;
  if (auto st = GroupConverter(b, options, &draft).run(profiles, default_type, unreferenced); !st) return st;
  std::vector<int> indices;  // positions in the scope, sorted
  for (uint32_t p : profiles) indices.push_back(static_cast<int>(p - scope.profiles.begin));
  std::sort(indices.begin(), indices.end());
  return sink(draft, std::move(indices));
}

Status convertScope(const flat::Batch& b, const flat::Scope& scope, const OtlpToPprofOptions& options,
                    const Sink& sink) {
  if (b.strings.empty() && scope.profiles.size > 0) return Status::invalid("otlp: dictionary string_table is empty");
  const ScopeInfo info = readScope(b, scope);
  const std::string_view* unreferenced = info.has_unreferenced_mappings ? &info.unreferenced_mappings : nullptr;
  if (auto order = zipOrder(b, scope, info); !order.empty())
    return convertGroup(b, scope, order, info.default_sample_type, unreferenced, options, sink);
  for (uint32_t j = 0; j < scope.profiles.size; ++j) {
    const uint32_t p = scope.profiles.begin + j;
    // A lone profile keeps the scope's default only if it names this profile's own type.
    std::string_view dflt = b.string(b.profiles[p].sample_type.type_strindex) == info.default_sample_type
                                ? std::string_view(info.default_sample_type)
                                : std::string_view();
    // Unreferenced mappings go with the first profile only, so they are not duplicated.
    const std::string_view* extra = j == 0 ? unreferenced : nullptr;
    if (auto st = convertGroup(b, scope, {p}, dflt, extra, options, sink); !st) return st;
  }
  return {};
}

// Runs convertScope over the batch; `add(draft, indices, r, s)` takes each result of scope (r, s).
template <class Add>
Status convertBatch(const flat::Batch& b, const OtlpToPprofOptions& options, Add add) {
  for (size_t r = 0; r < b.resources.size(); ++r) {
    int s = 0;
    Status status;
    b.forEachScope(b.resources[r], [&](uint32_t scope) {
      if (!status) return;
      status = convertScope(b, b.scopes[scope], options, [&](const ProfileDraft& draft, std::vector<int> indices) {
        return add(draft, std::move(indices), static_cast<int>(r), s);
      });
      ++s;
    });
    if (!status) return status;
  }
  return {};
}

}  // namespace

Status flatToPprof(const flat::Batch& in, std::vector<PprofFromOtlp>* out, const OtlpToPprofOptions& options) {
  return convertBatch(in, options, [&](const ProfileDraft& draft, std::vector<int> indices, int r, int s) {
    auto& e = out->emplace_back();
    internal::toProfile(draft, &e.profile);
    e.profile_indices = std::move(indices);
    e.resource_index = r;
    e.scope_index = s;
    return Status{};
  });
}

Status flatToPprofBytes(const flat::Batch& in, std::vector<EncodedPprof>* out, const OtlpToPprofOptions& options,
                        Encoding encoding, int level) {
  return convertBatch(in, options, [&](const ProfileDraft& draft, std::vector<int> indices, int r, int s) {
    EncodedPprof e;
    // No Profile message on the way to bytes, and no buffer of the whole serialized profile.
    if (auto st = internal::writeProfile(draft, &e.data, encoding, level); !st) return st;
    e.profile_indices = std::move(indices);
    e.resource_index = r;
    e.scope_index = s;
    out->push_back(std::move(e));
    return Status{};
  });
}

std::vector<uint32_t> sourceProfiles(const flat::Batch& in, int resource_index, int scope_index,
                                     const std::vector<int>& profile_indices) {
  std::vector<uint32_t> out;
  if (resource_index < 0 || static_cast<size_t>(resource_index) >= in.resources.size()) return out;
  int s = 0;
  in.forEachScope(in.resources[static_cast<size_t>(resource_index)], [&](uint32_t scope) {
    if (s++ != scope_index) return;
    const flat::Range profiles = in.scopes[scope].profiles;
    for (int i : profile_indices)
      if (i >= 0 && static_cast<uint32_t>(i) < profiles.size) out.push_back(profiles.begin + static_cast<uint32_t>(i));
  });
  return out;
}

}  // namespace proflow::pprof
