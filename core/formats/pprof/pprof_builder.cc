#include "core/formats/pprof/pprof_builder.h"

#include <algorithm>
#include <cstdio>
#include <functional>

#include "core/model/dictionary_builder.h"
#include "core/formats/pprof/pprof_ids.h"

namespace proflow::pprof::internal {
namespace {

Status dangling(const char* what, int32_t index, int size) {
  return Status::invalid(std::string("otlp: ") + what + " index " + std::to_string(index) +
                         " out of range (table has " + std::to_string(size) + " entries)");
}

template <class T>
bool inRange(const google::protobuf::RepeatedPtrField<T>& t, int32_t i) {
  return i >= 0 && i < t.size();
}

}  // namespace

PprofBuilder::PprofBuilder(const otlp::Dictionary& dict, ProfileDraft* out)
    : dict_(dict), out_(out), dict_strings_(dict.string_table_size(), -1),
      location_ids_(dict.location_table_size(), 0), function_ids_(dict.function_table_size(), 0),
      mapping_ids_(dict.mapping_table_size(), 0) {
  str("");
}

int64_t PprofBuilder::str(std::string_view s) {
  auto& table = out_->strings;
  return strings_.intern(
      std::hash<std::string_view>{}(s), [&](int32_t i) { return table[static_cast<size_t>(i)] == s; },
      [&] {
        table.push_back(out_->pool.add(s));
        return static_cast<int32_t>(table.size() - 1);
      });
}

int64_t PprofBuilder::dictStr(int32_t index) {
  int64_t& slot = dict_strings_[static_cast<size_t>(index)];
  if (slot < 0) slot = str(dict_.string_table(index));
  return slot;
}

Status PprofBuilder::attribute(int32_t index, Attr* a) const {
  if (!inRange(dict_.attribute_table(), index)) return dangling("attribute", index, dict_.attribute_table_size());
  const auto& kv = dict_.attribute_table(index);
  a->key = dictString(dict_, kv.key_strindex());
  a->unit = dictString(dict_, kv.unit_strindex());
  a->is_int = a->is_str = false;
  const auto& v = kv.value();
  switch (v.value_case()) {
    case otlp::AnyValue::kIntValue:
      a->is_int = true;
      a->num = v.int_value();
      break;
    case otlp::AnyValue::kStringValue:
      a->is_str = true;
      a->text = v.string_value();
      break;
    case otlp::AnyValue::kStringValueStrindex:
      a->is_str = true;
      a->text = dictString(dict_, v.string_value_strindex());
      break;
    case otlp::AnyValue::kBoolValue:
      a->is_str = true;
      a->text = v.bool_value() ? "true" : "false";
      break;
    case otlp::AnyValue::kDoubleValue: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", v.double_value());
      a->is_str = true;
      a->formatted = buf;
      a->text = a->formatted;
      break;
    }
    default:
      break;  // arrays, maps, bytes: no pprof label form
  }
  return {};
}

Status PprofBuilder::mapping(int32_t index, uint64_t* id) {
  if (index == 0) return (*id = 0, Status{});
  if (!inRange(dict_.mapping_table(), index)) return dangling("mapping", index, dict_.mapping_table_size());
  uint64_t& slot = mapping_ids_[static_cast<size_t>(index)];
  if (slot == 0) {
    const auto& om = dict_.mapping_table(index);
    view::Mapping m;
    slot = mappings_.size() + 1;
    m.id_ = slot;
    m.memory_start_ = om.memory_start();
    m.memory_limit_ = om.memory_limit();
    m.file_offset_ = om.file_offset();
    m.filename_ = str(dictString(dict_, om.filename_strindex()));
    Attr a;
    for (int32_t ai : om.attribute_indices()) {
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
    mappings_.push_back(std::move(m));
    used_mappings_.push_back(index);
  }
  *id = slot;
  return {};
}

Status PprofBuilder::function(int32_t index, uint64_t* id) {
  if (index == 0) return (*id = 0, Status{});
  if (!inRange(dict_.function_table(), index)) return dangling("function", index, dict_.function_table_size());
  uint64_t& slot = function_ids_[static_cast<size_t>(index)];
  if (slot == 0) {
    const auto& of = dict_.function_table(index);
    view::Function f;
    f.id_ = out_->functions.size() + 1;
    f.name_ = str(dictString(dict_, of.name_strindex()));
    f.system_name_ = str(dictString(dict_, of.system_name_strindex()));
    f.filename_ = str(dictString(dict_, of.filename_strindex()));
    f.start_line_ = of.start_line();
    slot = f.id_;
    out_->functions.push_back(f);
  }
  *id = slot;
  return {};
}

Status PprofBuilder::location(int32_t index, uint64_t* id) {
  if (!inRange(dict_.location_table(), index)) return dangling("location", index, dict_.location_table_size());
  uint64_t& slot = location_ids_[static_cast<size_t>(index)];
  if (slot == 0) {
    const auto& ol = dict_.location_table(index);
    ProfileDraft::Location l;
    if (auto st = mapping(ol.mapping_index(), &l.mapping_id); !st) return st;
    l.address = ol.address();
    // A failed line leaves its earlier lines behind in the flat array: harmless, the draft is
    // dropped on error.
    l.lines.offset = static_cast<uint32_t>(out_->lines.size());
    for (const auto& line : ol.lines()) {
      view::Line ln;
      if (auto st = function(line.function_index(), &ln.function_id_); !st) return st;
      ln.line_ = line.line();
      ln.column_ = line.column();
      out_->lines.push_back(ln);
    }
    l.lines.count = static_cast<uint32_t>(out_->lines.size() - l.lines.offset);
    Attr a;
    for (int32_t ai : ol.attribute_indices()) {
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

Status PprofBuilder::addStack(int32_t stack_index) {
  if (!inRange(dict_.stack_table(), stack_index)) return dangling("stack", stack_index, dict_.stack_table_size());
  const auto& st = dict_.stack_table(stack_index);
  for (int32_t li : st.location_indices()) {
    // Every frame of every sample comes here: locations already written are a plain lookup.
    uint64_t id = li >= 0 && static_cast<size_t>(li) < location_ids_.size() ? location_ids_[static_cast<size_t>(li)] : 0;
    if (id == 0)
      if (auto status = location(li, &id); !status) return status;
    out_->location_ids.push_back(static_cast<uint32_t>(id));  // position + 1
  }
  return {};
}

void PprofBuilder::addEvent(int64_t nanos) {
  if (out_->event_key == 0) {  // interned where the first timestamp label would have interned them
    out_->event_key = str(kTimestampLabel);
    out_->event_unit = str("nanoseconds");
  }
  out_->addEvent(nanos);
}

// Sample attributes repeat across samples: resolve each one to its label once.
Status PprofBuilder::label(int32_t index, const CachedLabel** out) {
  if (index >= 0 && static_cast<size_t>(index) < labels_.size() && labels_[static_cast<size_t>(index)].resolved) {
    *out = &labels_[static_cast<size_t>(index)];
    return {};
  }
  Attr a;
  if (auto st = attribute(index, &a); !st) return st;
  if (labels_.size() <= static_cast<size_t>(index)) labels_.resize(static_cast<size_t>(dict_.attribute_table_size()));
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

Status PprofBuilder::addLabels(const otlp::Sample& os) {
  bool has_link_labels = false;
  for (int32_t ai : os.attribute_indices()) {
    const CachedLabel* c;
    if (auto st = label(ai, &c); !st) return st;
    has_link_labels |= c->is_link;
    if (!c->present) continue;
    out_->labels.push_back(view::Label{c->key, c->str, c->num, c->unit});
  }
  if (os.link_index() == 0 || has_link_labels) return {};
  if (!inRange(dict_.link_table(), os.link_index()))
    return dangling("link", os.link_index(), dict_.link_table_size());
  const auto& link = dict_.link_table(os.link_index());
  // A link from a non-pprof source: keep it as the labels pprof-based tools understand.
  for (auto [key, id] : {std::pair{"span_id", &link.span_id()}, std::pair{"trace_id", &link.trace_id()}}) {
    if (id->find_first_not_of('\0') == std::string::npos) continue;
    out_->labels.push_back(view::Label{str(key), str(toHex(*id)), 0, 0});
  }
  return {};
}

Status PprofBuilder::addProfileAttributes(const otlp::Profile& op) {
  Attr a;
  for (int32_t ai : op.attribute_indices()) {
    if (auto st = attribute(ai, &a); !st) return st;
    if (a.key == attr::kDropFrames && a.is_str) out_->drop_frames = str(a.text);
    if (a.key == attr::kKeepFrames && a.is_str) out_->keep_frames = str(a.text);
    if (a.key == attr::kDocUrl && a.is_str) out_->doc_url = str(a.text);
    if (a.key == attr::kComment) {
      const auto& v = dict_.attribute_table(ai).value();
      if (v.has_array_value()) {
        for (const auto& c : v.array_value().values())
          out_->comment.push_back(
              str(c.has_string_value() ? std::string_view(c.string_value()) : dictString(dict_, c.string_value_strindex())));
      } else if (a.is_str) {
        out_->comment.push_back(str(a.text));
      }
    }
  }
  return {};
}

void PprofBuilder::finish() {
  // Mapping ids follow first use; the messages go out in dictionary order, which pprofToOtlp fills
  // in the producer's order (main binary first, by pprof convention).
  std::vector<size_t> order(mappings_.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return used_mappings_[a] < used_mappings_[b]; });
  for (size_t i : order) out_->mappings.push_back(mappings_[i]);
  mappings_.clear();
  out_->closeSample();
}

}  // namespace proflow::pprof::internal
