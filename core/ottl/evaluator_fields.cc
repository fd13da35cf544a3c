// The fields of the flat batch behind each path: reading them as values, setting them, and the
// attribute maps' read-edit-write cycle.
#include <algorithm>

#include "core/attributes/flat_attr_list.h"
#include "core/flat/flat_attributes.h"
#include "core/flat/flat_identity.h"
#include "core/ottl/evaluator.h"
#include "core/util/hex.h"

namespace proflow::ottl {
namespace {

Value flatValue(const flat::Batch& b, const flat::Value& v) {
  switch (v.kind) {
    case flat::ValueKind::kString: return Value::string(std::string(b.view(v.bytes)));
    case flat::ValueKind::kStrindex: return Value::string(std::string(b.string(v.strindex())));
    case flat::ValueKind::kBool: return Value::boolean(v.boolValue());
    case flat::ValueKind::kInt: return Value::integer(v.intValue());
    case flat::ValueKind::kDouble: return Value::floating(v.doubleValue());
    case flat::ValueKind::kBytes: return Value::bytes(std::string(b.view(v.bytes)));
    case flat::ValueKind::kArray:
    case flat::ValueKind::kKvList: return fromAnyValue(flat::nestedMessage(v, b), &b);
    default: return Value::nil();
  }
}

bool validIndex(int32_t i, size_t size) { return i > 0 && static_cast<size_t>(i) < size; }

int64_t asInt(const Expr& at, const Value& v, const char* what) {
  if (v.kind != Value::Kind::kInt) Evaluator::fail(at, std::string(what) + " takes an int, not a " + kindName(v.kind));
  return v.i;
}
const std::string& asString(const Expr& at, const Value& v, const char* what) {
  if (v.kind != Value::Kind::kString)
    Evaluator::fail(at, std::string(what) + " takes a string, not a " + kindName(v.kind));
  return v.s;
}
uint32_t asCount(const Expr& at, const Value& v) {
  int64_t n = asInt(at, v, "dropped_attributes_count");
  if (n < 0 || n > UINT32_MAX) Evaluator::fail(at, "dropped_attributes_count must be between 0 and 4294967295");
  return static_cast<uint32_t>(n);
}

// The new list of an edited map: entries whose key and value did not change are the original ones
// (their encoding kept), the others are marked changed.
attributes::AttrList diffList(const flat::Batch& b, const attributes::AttrList& original, const Value& map) {
  attributes::AttrList out;
  out.reserve(map.items.size());
  for (size_t i = 0; i < map.items.size(); ++i) {
    const auto it = std::find_if(original.begin(), original.end(), [&](const auto& a) { return a.key == map.keys[i]; });
    if (it != original.end() && equal(fromAnyValue(it->value, &b), map.items[i])) {
      out.push_back(*it);
      continue;
    }
    out.push_back(attributes::Attr{map.keys[i], toAnyValue(map.items[i]), it != original.end() ? it->origin : -1, true});
  }
  return out;
}

}  // namespace

Evaluator::MapLevel Evaluator::mapLevel(Field f) {
  switch (f) {
    case Field::kResourceAttributes: return kResourceMap;
    case Field::kScopeAttributes: return kScopeMap;
    case Field::kProfileAttributes: return kProfileMap;
    default: return kSampleMap;
  }
}

Value Evaluator::readAttribute(MapLevel level, std::string_view key) {
  const flat::Batch& b = b_;
  if (level == kResourceMap || level == kScopeMap) {
    const flat::Range r = level == kResourceMap ? b.resources[item_.resource].attributes : b.scopes[item_.scope].attributes;
    for (const flat::KeyValue& kv : flat::Batch::slice(b.key_values, r))
      if (flat::keyOf(b, kv) == key) return flatValue(b, kv.value);
    return Value::nil();
  }
  for (int32_t i : currentList(level)) {
    if (!validIndex(i, b.attributes.size())) continue;
    const flat::Attribute& a = b.attributes[static_cast<size_t>(i)];
    if (b.string(a.key_strindex) == key) return flatValue(b, a.value);
  }
  return Value::nil();
}

Value Evaluator::readMap(MapLevel level) const {
  const flat::Batch& b = b_;
  Value out = Value::map();
  if (level == kResourceMap || level == kScopeMap) {
    const flat::Range r = level == kResourceMap ? b.resources[item_.resource].attributes : b.scopes[item_.scope].attributes;
    // Read as every lookup reads it (a repeated key: its first value), not overwritten by a later one.
    flat::forEachKeyValue(b, r, [&](std::string_view key, const flat::KeyValue& kv) { out.put(key, flatValue(b, kv.value)); });
    return out;
  }
  for (int32_t i : currentList(level)) {
    if (!validIndex(i, b.attributes.size())) continue;
    const flat::Attribute& a = b.attributes[static_cast<size_t>(i)];
    out.put(b.string(a.key_strindex), flatValue(b, a.value));
  }
  return out;
}

Value& Evaluator::loadMap(MapLevel level) {
  MapSlot& slot = maps_[level];
  if (!slot.loaded) {
    slot.map = readMap(level);  // with the edits made to the index list so far
    slot.loaded = true;
    slot.listed = false;
  }
  return slot.map;
}

std::span<const int32_t> Evaluator::originalList(MapLevel level) const {
  return b_.indexList(level == kProfileMap ? b_.profiles[item_.profile].attributes : b_.samples.attributes[item_.row]);
}

std::span<const int32_t> Evaluator::currentList(MapLevel level) const {
  return maps_[level].listed ? std::span<const int32_t>(maps_[level].list) : originalList(level);
}

// The item's list as indexes to edit in place; null when it must be edited as a map: it is one
// already, or it has a key twice (a map keeps one, so the list's edit would differ).
std::vector<int32_t>* Evaluator::editableList(MapLevel level) {
  MapSlot& slot = maps_[level];
  if (slot.loaded) return nullptr;
  if (slot.listed) return &slot.list;
  const flat::Batch& b = b_;
  slot.list.clear();
  for (int32_t i : originalList(level)) {
    if (!validIndex(i, b.attributes.size())) continue;  // a map would skip it as well
    const std::string_view key = b.string(b.attributes[static_cast<size_t>(i)].key_strindex);
    for (int32_t seen : slot.list)
      if (b.string(b.attributes[static_cast<size_t>(seen)].key_strindex) == key) return nullptr;
    slot.list.push_back(i);
  }
  // Dropping an invalid index is an edit the list must be written for.
  slot.dirty = slot.list.size() != originalList(level).size();
  slot.listed = true;
  return &slot.list;
}

// set(attributes["key"], v) on an index list: the entry is replaced (keeping its unit) or added,
// with the dictionary attribute {key, unit, v}. False when v is no scalar or the list cannot be
// edited in place.
bool Evaluator::setListed(const Expr& at, MapLevel level, std::string_view key, const Value& v) {
  if (v.isNil() || v.isMap() || v.isList()) return false;
  flat::Batch& b = writable(at);
  std::vector<int32_t>* list = editableList(level);
  if (!list) return false;
  auto it = std::find_if(list->begin(), list->end(), [&](int32_t i) {
    return b.string(b.attributes[static_cast<size_t>(i)].key_strindex) == key;
  });
  int32_t unit = 0;
  if (it != list->end()) {
    const flat::Attribute& old = b.attributes[static_cast<size_t>(*it)];
    const Value current = flatValue(b, old.value);
    if (current.kind == v.kind && equal(current, v)) return true;  // the same value: the entry stays as it came
    unit = old.unit_strindex;
  }
  const int32_t index = edits_->scalarAttribute(b, key, unit, v);
  if (it != list->end()) *it = index;
  else list->push_back(index);
  maps_[level].dirty = true;
  return true;
}

bool Evaluator::deleteListedKey(const Expr& target, std::string_view key) {
  const PathRef& p = target.path;
  if (target.kind != ExprKind::kPath || !target.keys.empty() ||
      (p.field != Field::kProfileAttributes && p.field != Field::kSampleAttributes))
    return false;
  const MapLevel level = mapLevel(p.field);
  const flat::Batch& b = writable(target);
  std::vector<int32_t>* list = editableList(level);
  if (!list) return false;
  auto it = std::find_if(list->begin(), list->end(), [&](int32_t i) {
    return b.string(b.attributes[static_cast<size_t>(i)].key_strindex) == key;
  });
  if (it == list->end()) return true;
  list->erase(it);
  maps_[level].dirty = true;
  return true;
}

void Evaluator::end() {
  for (int level = 0; level < kMapLevels; ++level) {
    MapSlot& slot = maps_[level];
    if (slot.dirty) slot.loaded ? writeBack(static_cast<MapLevel>(level)) : writeList(static_cast<MapLevel>(level));
    slot.loaded = slot.listed = slot.dirty = false;
    if (!slot.map.keys.empty() || !slot.map.items.empty()) slot.map = Value();
    slot.list.clear();
  }
}

void Evaluator::writeList(MapLevel level) {
  flat::Batch& b = *mut_;  // only edits make a list dirty, and edits need a writable batch
  flat::Range* r = level == kProfileMap ? &b.profiles[item_.profile].attributes : &b.samples.attributes[item_.row];
  const std::vector<int32_t>& list = maps_[level].list;
  const auto original = b.indexList(*r);
  if (std::equal(list.begin(), list.end(), original.begin(), original.end())) return;
  *r = edits_->list(b, list);
}

void Evaluator::writeBack(MapLevel level) {
  flat::Batch& b = *mut_;  // only edits make a map dirty, and edits need a writable batch
  const Value& map = maps_[level].map;
  if (level == kResourceMap || level == kScopeMap) {
    flat::Range* r = level == kResourceMap ? &b.resources[item_.resource].attributes : &b.scopes[item_.scope].attributes;
    attributes::writeKeyValues(b, r, diffList(b, attributes::readKeyValues(b, *r), map));
    if (level == kResourceMap) b.resources[item_.resource].present = true;
    return;
  }
  flat::Range* r = level == kProfileMap ? &b.profiles[item_.profile].attributes : &b.samples.attributes[item_.row];
  const auto view = b.indexList(*r);
  const std::vector<int32_t> indices(view.begin(), view.end());  // b.indices grows below
  const auto list = diffList(b, attributes::readIndexedAttributes(b, indices), map);
  const std::vector<int32_t> out = attributes::internAttributes(dict(), indices, list);
  if (out == indices) return;
  *r = edits_->list(b, out);
}

Evaluator::Frame Evaluator::leafFrame() const {
  if (item_.row == flat::kNone) return {};
  const int32_t stack = b_.samples.stack_index[item_.row];
  if (!validIndex(stack, b_.stacks.size())) return {};
  const auto locations = b_.indexList(b_.stacks[static_cast<size_t>(stack)].locations);
  return locations.empty() ? Frame{} : Frame{locations.front(), 0};
}

std::optional<std::string_view> Evaluator::frameString(const Expr& path) const {
  const Field f = path.path.field;
  if (path.kind != ExprKind::kPath || !path.keys.empty() ||
      (f != Field::kFrameFunction && f != Field::kFrameSystemName && f != Field::kFrameFilename &&
       f != Field::kFrameMappingFilename))
    return std::nullopt;
  const flat::Batch& b = b_;
  const Frame frame = path.path.leaf ? leafFrame() : frame_;
  if (!validIndex(frame.location, b.locations.size())) return std::nullopt;
  const flat::Location& loc = b.locations[static_cast<size_t>(frame.location)];
  if (f == Field::kFrameMappingFilename) {
    if (!validIndex(loc.mapping_index, b.mappings.size())) return std::nullopt;
    return b.string(b.mappings[static_cast<size_t>(loc.mapping_index)].filename_strindex);
  }
  if (frame.line >= loc.lines.size) return std::nullopt;
  const flat::Line& line = b.lines[loc.lines.begin + frame.line];
  if (!validIndex(line.function_index, b.functions.size())) return std::nullopt;
  const flat::Function& fn = b.functions[static_cast<size_t>(line.function_index)];
  return b.string(f == Field::kFrameFunction ? fn.name_strindex
                  : f == Field::kFrameSystemName ? fn.system_name_strindex
                                                 : fn.filename_strindex);
}

Value Evaluator::frameField(Field f, const Frame& frame) const {
  const flat::Batch& b = b_;
  if (!validIndex(frame.location, b.locations.size())) return Value::nil();
  const flat::Location& loc = b.locations[static_cast<size_t>(frame.location)];
  if (f == Field::kFrameAddress) return Value::integer(static_cast<int64_t>(loc.address));
  if (f == Field::kFrameMappingFilename) {
    if (!validIndex(loc.mapping_index, b.mappings.size())) return Value::nil();
    return Value::string(std::string(b.string(b.mappings[static_cast<size_t>(loc.mapping_index)].filename_strindex)));
  }
  if (frame.line >= loc.lines.size) return Value::nil();
  const flat::Line& line = b.lines[loc.lines.begin + frame.line];
  if (f == Field::kFrameLine) return Value::integer(line.line);
  if (!validIndex(line.function_index, b.functions.size())) return Value::nil();
  const flat::Function& fn = b.functions[static_cast<size_t>(line.function_index)];
  const int32_t s = f == Field::kFrameFunction ? fn.name_strindex
                    : f == Field::kFrameSystemName ? fn.system_name_strindex
                                                   : fn.filename_strindex;
  return Value::string(std::string(b.string(s)));
}

Value Evaluator::field(const PathRef& p) {
  const flat::Batch& b = b_;
  if (isFrameField(p.field)) return frameField(p.field, p.leaf ? leafFrame() : frame_);
  switch (p.field) {
    case Field::kCache: return cache_;
    case Field::kResourceAttributes:
    case Field::kScopeAttributes:
    case Field::kProfileAttributes:
    case Field::kSampleAttributes: {
      const MapLevel level = mapLevel(p.field);
      return maps_[level].loaded ? maps_[level].map : readMap(level);
    }
    case Field::kResourceDroppedAttributesCount: return Value::integer(b.resources[item_.resource].dropped_attributes_count);
    case Field::kResourceSchemaUrl: return Value::string(std::string(b.view(b.resources[item_.resource].schema_url)));
    case Field::kScopeName: return Value::string(std::string(b.view(b.scopes[item_.scope].name)));
    case Field::kScopeVersion: return Value::string(std::string(b.view(b.scopes[item_.scope].version)));
    case Field::kScopeDroppedAttributesCount: return Value::integer(b.scopes[item_.scope].dropped_attributes_count);
    case Field::kScopeSchemaUrl: return Value::string(std::string(b.view(b.scopes[item_.scope].schema_url)));
    default: break;
  }
  if (p.level == ContextKind::kProfile) {
    const flat::Profile& pr = b.profiles[item_.profile];
    switch (p.field) {
      case Field::kProfileTimeUnixNano: return Value::integer(static_cast<int64_t>(pr.time_unix_nano));
      case Field::kProfileDurationUnixNano: return Value::integer(static_cast<int64_t>(pr.duration_nano));
      case Field::kProfilePeriod: return Value::integer(pr.period);
      case Field::kProfileId: return Value::bytes(std::string(b.view(pr.profile_id)));
      case Field::kProfileIdString: return Value::string(flat::profileIdHex(b, pr));
      case Field::kProfileDroppedAttributesCount: return Value::integer(pr.dropped_attributes_count);
      case Field::kProfileOriginalPayloadFormat: return Value::string(std::string(b.view(pr.original_payload_format)));
      case Field::kProfileOriginalPayload: return Value::bytes(std::string(b.view(pr.original_payload)));
      case Field::kProfileSampleTypeType: return Value::string(std::string(b.string(pr.sample_type.type_strindex)));
      case Field::kProfileSampleTypeUnit: return Value::string(std::string(b.string(pr.sample_type.unit_strindex)));
      case Field::kProfilePeriodTypeType: return Value::string(std::string(b.string(pr.period_type.type_strindex)));
      case Field::kProfilePeriodTypeUnit: return Value::string(std::string(b.string(pr.period_type.unit_strindex)));
      default: break;
    }
  }
  const uint32_t row = item_.row;
  switch (p.field) {
    case Field::kSampleValues: {
      Value out = Value::list({});
      for (int64_t v : flat::Batch::slice(b.values, b.samples.values[row])) out.items.push_back(Value::integer(v));
      return out;
    }
    case Field::kSampleTimestamps: {
      Value out = Value::list({});
      for (uint64_t t : flat::Batch::slice(b.timestamps, b.samples.timestamps[row]))
        out.items.push_back(Value::integer(static_cast<int64_t>(t)));
      return out;
    }
    case Field::kSampleLinkIndex: return Value::integer(b.samples.link_index[row]);
    case Field::kSampleStackIndex: return Value::integer(b.samples.stack_index[row]);
    case Field::kSampleDepth: {
      const int32_t s = b.samples.stack_index[row];
      return Value::integer(validIndex(s, b.stacks.size()) ? b.stacks[static_cast<size_t>(s)].locations.size : 0);
    }
    default: return Value::nil();
  }
}

void Evaluator::setField(const Expr& at, const PathRef& p, Value v) {
  if (!p.settable) fail(at, "this path cannot be set");
  if (p.field == Field::kCache) {
    if (!v.isMap()) fail(at, std::string("cache takes a map, not a ") + kindName(v.kind));
    cache_ = std::move(v);
    return;
  }
  flat::Batch& b = writable(at);
  if (p.is_map) {
    if (!v.isMap()) fail(at, std::string("attributes take a map, not a ") + kindName(v.kind));
    MapSlot& slot = maps_[mapLevel(p.field)];
    slot.map = std::move(v);
    slot.loaded = slot.dirty = true;
    slot.listed = false;
    return;
  }
  switch (p.field) {
    case Field::kResourceDroppedAttributesCount: b.resources[item_.resource].dropped_attributes_count = asCount(at, v); return;
    case Field::kResourceSchemaUrl: b.resources[item_.resource].schema_url = b.addBytes(asString(at, v, "schema_url")); return;
    case Field::kScopeName:
    case Field::kScopeVersion: {
      flat::Scope& s = b.scopes[item_.scope];
      (p.field == Field::kScopeName ? s.name : s.version) = b.addBytes(asString(at, v, "the scope's name/version"));
      s.present = true;
      return;
    }
    case Field::kScopeDroppedAttributesCount: b.scopes[item_.scope].dropped_attributes_count = asCount(at, v); return;
    case Field::kScopeSchemaUrl: b.scopes[item_.scope].schema_url = b.addBytes(asString(at, v, "schema_url")); return;
    default: break;
  }
  flat::Profile& pr = b.profiles[item_.profile];
  switch (p.field) {
    case Field::kProfileTimeUnixNano: pr.time_unix_nano = static_cast<uint64_t>(asInt(at, v, "time_unix_nano")); return;
    case Field::kProfileDurationUnixNano: pr.duration_nano = static_cast<uint64_t>(asInt(at, v, "duration_unix_nano")); return;
    case Field::kProfilePeriod: pr.period = asInt(at, v, "period"); return;
    case Field::kProfileDroppedAttributesCount: pr.dropped_attributes_count = asCount(at, v); return;
    case Field::kProfileOriginalPayloadFormat:
      pr.original_payload_format = b.addBytes(asString(at, v, "original_payload_format"));
      return;
    case Field::kProfileOriginalPayload:
      if (v.kind != Value::Kind::kBytes) fail(at, std::string("original_payload takes bytes, not a ") + kindName(v.kind));
      pr.original_payload = b.addBytes(v.s);
      return;
    case Field::kProfileId:
      if (v.kind != Value::Kind::kBytes || (v.s.size() != 16 && !v.s.empty()))
        fail(at, "profile_id takes 16 bytes (0x + 32 hex digits)");
      pr.profile_id = b.addBytes(v.s);
      return;
    case Field::kProfileIdString: {
      const std::string& hex = asString(at, v, "profile_id.string");
      const std::optional<std::string> bytes = hexDecode(hex);
      if (hex.size() != 32 || !bytes) fail(at, "profile_id.string takes 32 hex digits");
      pr.profile_id = b.addBytes(*bytes);
      return;
    }
    case Field::kProfileSampleTypeType:
    case Field::kProfileSampleTypeUnit:
    case Field::kProfilePeriodTypeType:
    case Field::kProfilePeriodTypeUnit: {
      const int32_t s = internString(at, asString(at, v, "a value type"));
      flat::ValueType& vt = p.field == Field::kProfileSampleTypeType || p.field == Field::kProfileSampleTypeUnit
                                ? pr.sample_type
                                : pr.period_type;
      (p.field == Field::kProfileSampleTypeType || p.field == Field::kProfilePeriodTypeType ? vt.type_strindex
                                                                                             : vt.unit_strindex) = s;
      vt.present = true;
      return;
    }
    default: fail(at, "this path cannot be set");
  }
}

}  // namespace proflow::ottl
