#include "tests/core/formats/jfr/jfr_writer.h"

#include <map>

namespace proflow::testing {

JfrBytes& JfrBytes::varint(uint64_t v) {
  for (int i = 0; i < 8; ++i) {
    if (v < 0x80) return u8(static_cast<uint8_t>(v));
    u8(static_cast<uint8_t>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  return u8(static_cast<uint8_t>(v));  // 9th byte: all 8 bits
}

JfrBytes& JfrBytes::padded(uint64_t v, int bytes) {
  for (int i = 0; i < bytes - 1; ++i) {
    u8(static_cast<uint8_t>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  return u8(static_cast<uint8_t>(v & 0x7f));
}

JfrBytes& JfrBytes::u8(uint8_t v) {
  s_.push_back(static_cast<char>(v));
  return *this;
}

JfrBytes& JfrBytes::be(uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) u8(static_cast<uint8_t>(v >> (8 * i)));
  return *this;
}

JfrBytes& JfrBytes::utf8(std::string_view s) { return u8(3).varint(s.size()).raw(s); }
JfrBytes& JfrBytes::latin1(std::string_view s) { return u8(5).varint(s.size()).raw(s); }
JfrBytes& JfrBytes::chars(std::u16string_view s) {
  u8(4).varint(s.size());
  for (char16_t c : s) varint(c);
  return *this;
}
JfrBytes& JfrBytes::poolString(uint64_t key) { return u8(2).varint(key); }
JfrBytes& JfrBytes::nullString() { return u8(0); }
JfrBytes& JfrBytes::emptyString() { return u8(1); }
JfrBytes& JfrBytes::raw(std::string_view s) {
  s_.append(s);
  return *this;
}

void ChunkBuilder::event(uint64_t type_id, const JfrBytes& body) {
  JfrBytes rest;
  rest.varint(type_id).raw(body.str());
  JfrBytes e;
  e.padded(rest.size() + 4, 4).raw(rest.str());
  body_ += e.str();
}

void ChunkBuilder::checkpoint(const std::vector<PoolSpec>& pools) {
  size_t at = body_.size();
  // The delta is relative to this checkpoint; the metadata event's size shifts both ends equally.
  int64_t delta = checkpoint_offsets_.empty() ? 0 : static_cast<int64_t>(checkpoint_offsets_.back()) - static_cast<int64_t>(at);
  JfrBytes b;
  b.varint(0).varint(0).varint(static_cast<uint64_t>(delta)).varint(checkpoint_offsets_.empty() ? 2 : 0);
  b.varint(pools.size());
  for (const PoolSpec& p : pools) {
    b.varint(p.type_id).varint(p.entries.size());
    for (const auto& [key, value] : p.entries) b.varint(key).raw(value);
  }
  checkpoint_offsets_.push_back(at);
  event(1, b);
}

std::string ChunkBuilder::metadataEvent() const {
  std::vector<std::string> strings;
  std::map<std::string, uint64_t> index;
  auto s = [&](const std::string& v) {
    auto [it, inserted] = index.try_emplace(v, strings.size());
    if (inserted) strings.push_back(v);
    return it->second;
  };
  // Element: name, attributes, children.
  struct Node {
    std::string name;
    std::vector<std::pair<std::string, std::string>> attrs;
    std::vector<Node> children;
  };
  Node root{"root", {}, {}};
  Node meta{"metadata", {}, {}};
  for (const ClassSpec& c : classes_) {
    Node cn{"class", {{"id", std::to_string(c.id)}, {"name", c.name}}, {}};
    if (!c.super_type.empty()) cn.attrs.emplace_back("superType", c.super_type);
    if (c.simple_type) cn.attrs.emplace_back("simpleType", "true");
    for (const FieldSpec& f : c.fields) {
      Node fn{"field", {{"name", f.name}, {"class", std::to_string(f.type_id)}}, {}};
      if (f.constant_pool) fn.attrs.emplace_back("constantPool", "true");
      if (f.array) fn.attrs.emplace_back("dimension", "1");
      for (const auto& [aid, value] : f.annotations)
        fn.children.push_back({"annotation", {{"class", std::to_string(aid)}, {"value", value}}, {}});
      cn.children.push_back(std::move(fn));
    }
    meta.children.push_back(std::move(cn));
  }
  root.children.push_back(std::move(meta));
  root.children.push_back({"region", {{"locale", "en_US"}, {"gmtOffset", "0"}}, {}});
  JfrBytes tree;
  auto write = [&](auto& self, const Node& n) -> void {
    tree.varint(s(n.name)).varint(n.attrs.size());
    for (const auto& [k, v] : n.attrs) tree.varint(s(k)).varint(s(v));
    tree.varint(n.children.size());
    for (const Node& c : n.children) self(self, c);
  };
  write(write, root);
  JfrBytes b;
  b.varint(0).varint(0).varint(7).varint(strings.size());
  for (size_t i = 0; i < strings.size(); ++i) {
    // Mix encodings like the real producers: JDK char arrays, async-profiler UTF-8.
    if (i % 2) {
      b.utf8(strings[i]);
    } else {
      std::u16string u(strings[i].begin(), strings[i].end());  // metadata strings are ASCII
      b.chars(u);
    }
  }
  b.raw(tree.str());
  JfrBytes e;
  JfrBytes rest;
  rest.varint(0).raw(b.str());
  e.padded(rest.size() + 5, 5).raw(rest.str());
  return e.str();
}

std::string ChunkBuilder::build(int64_t start_nanos, int64_t start_ticks) const {
  std::string meta = metadataEvent();
  const uint64_t meta_off = 68;
  const uint64_t body_off = meta_off + meta.size();
  const uint64_t size = body_off + body_.size();
  const uint64_t cp_off = checkpoint_offsets_.empty() ? 0 : body_off + checkpoint_offsets_.back();
  JfrBytes h;
  h.be(0x464C5200, 4).be(2, 2).be(minor_, 2).be(size, 8).be(cp_off, 8).be(meta_off, 8);
  h.be(static_cast<uint64_t>(start_nanos), 8).be(1'000'000'000, 8).be(static_cast<uint64_t>(start_ticks), 8);
  h.be(1'000'000, 8);
  h.be(minor_ >= 1 ? 3 : 1, 4);  // 2.1: state 0, flags compressed|final; 2.0: features = compressed
  return h.str() + meta + body_;
}

void ChunkBuilder::addStandardClasses() {
  using namespace ids;
  const std::pair<uint64_t, const char*> prims[] = {{kBoolean, "boolean"}, {kChar, "char"},   {kFloat, "float"},
                                                    {kDouble, "double"},   {kByte, "byte"},   {kShort, "short"},
                                                    {kInt, "int"},         {kLong, "long"},   {kString, "java.lang.String"}};
  for (auto [id, name] : prims) addClass({id, name, "", false, {}});
  addClass({kTimespan, "jdk.jfr.Timespan", "java.lang.annotation.Annotation", false, {{"value", kString}}});
  addClass({kTimestamp, "jdk.jfr.Timestamp", "java.lang.annotation.Annotation", false, {{"value", kString}}});
  addClass({kSymbol, "jdk.types.Symbol", "", true, {{"string", kString}}});
  addClass({kPackage, "jdk.types.Package", "", false, {{"name", kSymbol, true}}});
  addClass({kClass, "java.lang.Class", "", false,
            {{"classLoader", kLong}, {"name", kSymbol, true}, {"package", kPackage, true}, {"modifiers", kInt}}});
  addClass({kMethod, "jdk.types.Method", "", false,
            {{"type", kClass, true}, {"name", kSymbol, true}, {"descriptor", kSymbol, true}, {"modifiers", kInt},
             {"hidden", kBoolean}}});
  addClass({kFrameType, "jdk.types.FrameType", "", true, {{"description", kString}}});
  addClass({kThreadState, "jdk.types.ThreadState", "", true, {{"name", kString}}});
  addClass({kStackFrame, "jdk.types.StackFrame", "", false,
            {{"method", kMethod, true}, {"lineNumber", kInt}, {"bytecodeIndex", kInt}, {"type", kFrameType, true}}});
  addClass({kStackTrace, "jdk.types.StackTrace", "", false, {{"truncated", kBoolean}, {"frames", kStackFrame, false, true}}});
  addClass({kThread, "java.lang.Thread", "", false,
            {{"osName", kString}, {"osThreadId", kLong}, {"javaName", kString}, {"javaThreadId", kLong}}});
  const std::vector<std::pair<uint64_t, std::string>> ticks = {{kTimestamp, "TICKS"}};
  addClass({kExecutionSample, "jdk.ExecutionSample", "jdk.jfr.Event", false,
            {{"startTime", kLong, false, false, ticks}, {"sampledThread", kThread, true}, {"stackTrace", kStackTrace, true},
             {"state", kThreadState, true}, {"contextId", kLong}, {"spanId", kLong}, {"spanName", kString},
             {"traceIdHi", kLong}, {"traceIdLo", kLong}}});
  addClass({kMonitorEnter, "jdk.JavaMonitorEnter", "jdk.jfr.Event", false,
            {{"startTime", kLong, false, false, ticks}, {"duration", kLong, false, false, {{kTimespan, "NANOSECONDS"}}},
             {"eventThread", kThread, true}, {"stackTrace", kStackTrace, true}, {"monitorClass", kClass, true},
             {"previousOwner", kThread, true}, {"address", kLong}}});
  addClass({kActiveSetting, "jdk.ActiveSetting", "jdk.jfr.Event", false,
            {{"startTime", kLong}, {"duration", kLong}, {"eventThread", kThread, true}, {"id", kLong},
             {"name", kString}, {"value", kString}}});
  addClass({kLiveObject, "profiler.LiveObject", "jdk.jfr.Event", false,
            {{"startTime", kLong}, {"eventThread", kThread, true}, {"stackTrace", kStackTrace, true},
             {"objectClass", kClass, true}, {"allocationSize", kLong}, {"allocationTime", kLong}}});
  addClass({kWallClock, "profiler.WallClockSample", "jdk.jfr.Event", false,
            {{"startTime", kLong}, {"sampledThread", kThread, true}, {"stackTrace", kStackTrace, true},
             {"state", kThreadState, true}, {"samples", kInt}, {"timeSpan", kLong}}});
  addClass({kMalloc, "profiler.Malloc", "jdk.jfr.Event", false,
            {{"startTime", kLong}, {"eventThread", kThread, true}, {"stackTrace", kStackTrace, true},
             {"address", kLong}, {"size", kLong}}});
}

}  // namespace proflow::testing
