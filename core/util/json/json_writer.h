// The one JSON writer of production code: compact output (no whitespace), commas placed by the
// writer, strings escaped as protobuf's JSON printer escapes them (so OTLP/JSON written here is
// byte-for-byte what protobuf prints), bytes that are not valid UTF-8 written as U+FFFD so the
// output always parses.
//
//   std::string out;
//   json::Writer w(&out);
//   w.beginObject().key("family").string("go").key("attachments").beginArray().string("cpu.pprof").endArray().endObject();
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace proflow::json {

// Appends `s` quoted and escaped.
void appendString(std::string& out, std::string_view s);

// Appends `v` as protobuf's JSON printer writes a double: the shortest of 15 or 17 significant digits
// that reads back as `v`, in printf's %g form ("0.1", "1e+21"); NaN and infinities as the strings
// "NaN", "Infinity", "-Infinity".
void appendDouble(std::string& out, double v);

class Writer {
 public:
  explicit Writer(std::string* out) : out_(*out) {}

  Writer& beginObject() { return open('{'); }
  Writer& endObject() { return close('}'); }
  Writer& beginArray() { return open('['); }
  Writer& endArray() { return close(']'); }
  Writer& key(std::string_view name) {
    separate();
    appendString(out_, name);
    out_ += ':';
    first_ = true;
    return *this;
  }
  Writer& string(std::string_view s) {
    separate();
    appendString(out_, s);
    return *this;
  }
  Writer& int64(int64_t v) { return raw(std::to_string(v)); }
  Writer& uint64(uint64_t v) { return raw(std::to_string(v)); }
  // A 64-bit integer as a JSON string, as the protobuf JSON mapping writes int64 fields.
  Writer& quotedInt64(int64_t v) { return quoted(std::to_string(v)); }
  Writer& quotedUint64(uint64_t v) { return quoted(std::to_string(v)); }
  Writer& number(double v) {
    separate();
    appendDouble(out_, v);
    return *this;
  }
  // Bytes as a JSON string: base64 (standard alphabet, padded) as the protobuf JSON mapping writes
  // bytes fields, or lowercase hex as OTLP/JSON writes trace, span and profile ids.
  Writer& base64(std::string_view bytes);
  Writer& hex(std::string_view bytes);
  Writer& boolean(bool v) { return raw(v ? "true" : "false"); }
  Writer& null() { return raw("null"); }
  // `text` must already be one JSON value (a number formatted by the caller, ...).
  Writer& raw(std::string_view text) {
    separate();
    out_ += text;
    return *this;
  }

 private:
  Writer& open(char c) {
    separate();
    out_ += c;
    first_ = true;
    return *this;
  }
  Writer& close(char c) {
    out_ += c;
    first_ = false;
    return *this;
  }
  Writer& quoted(const std::string& digits) {
    separate();
    out_ += '"';
    out_ += digits;
    out_ += '"';
    return *this;
  }
  void separate() {
    if (!first_) out_ += ',';
    first_ = false;
  }

  std::string& out_;
  bool first_ = true;  // nothing written yet at this level (or a key was just written)
};

}  // namespace proflow::json
