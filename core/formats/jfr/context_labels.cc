#include "core/formats/jfr/context_labels.h"

namespace proflow::jfr {
namespace {

// Minimal protobuf wire reader: varints and length-delimited fields are all LabelsSnapshot uses.
class Wire {
 public:
  explicit Wire(std::string_view b) : p_(b.data()), end_(b.data() + b.size()) {}
  bool more() const { return ok_ && p_ < end_; }
  bool ok() const { return ok_; }

  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ >= end_) return ok_ = false, 0;
      uint8_t b = static_cast<uint8_t>(*p_++);
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    ok_ = false;
    return 0;
  }

  std::string_view bytes() {
    uint64_t n = varint();
    if (!ok_ || n > static_cast<uint64_t>(end_ - p_)) return ok_ = false, std::string_view();
    std::string_view s(p_, n);
    p_ += n;
    return s;
  }

  // Reads a tag; skips fields that are not varint or length-delimited.
  bool tag(uint32_t* field, uint32_t* wire_type) {
    uint64_t t = varint();
    *field = static_cast<uint32_t>(t >> 3);
    *wire_type = static_cast<uint32_t>(t & 7);
    return ok_;
  }

  void skip(uint32_t wire_type) {
    switch (wire_type) {
      case 0:
        varint();
        break;
      case 1:
        advance(8);
        break;
      case 2:
        bytes();
        break;
      case 5:
        advance(4);
        break;
      default:
        ok_ = false;
    }
  }

 private:
  void advance(size_t n) {
    if (static_cast<size_t>(end_ - p_) < n) ok_ = false;
    else p_ += n;
  }
  const char* p_;
  const char* end_;
  bool ok_ = true;
};

// A map entry { key = 1 (varint); value = 2 (varint or bytes) }.
struct Entry {
  int64_t key = 0;
  uint64_t int_value = 0;
  std::string_view bytes_value;
};

bool readEntry(std::string_view b, Entry* e) {
  Wire w(b);
  while (w.more()) {
    uint32_t f = 0, wt = 0;
    if (!w.tag(&f, &wt)) return false;
    if (f == 1 && wt == 0) e->key = static_cast<int64_t>(w.varint());
    else if (f == 2 && wt == 0) e->int_value = w.varint();
    else if (f == 2 && wt == 2) e->bytes_value = w.bytes();
    else w.skip(wt);
  }
  return w.ok();
}

}  // namespace

bool ContextLabels::parse(std::string_view bytes, std::string* error) {
  std::unordered_map<int64_t, std::string>& strings = strings_;
  std::vector<std::pair<int64_t, std::string_view>> contexts;
  Wire w(bytes);
  while (w.more()) {
    uint32_t f = 0, wt = 0;
    if (!w.tag(&f, &wt)) break;
    if ((f == 1 || f == 2) && wt == 2) {
      Entry e;
      if (!readEntry(w.bytes(), &e)) {
        *error = "malformed LabelsSnapshot map entry";
        return false;
      }
      if (f == 1) contexts.emplace_back(e.key, e.bytes_value);
      else strings[e.key] = std::string(e.bytes_value);
    } else {
      w.skip(wt);
    }
  }
  if (!w.ok()) {
    *error = "malformed LabelsSnapshot";
    return false;
  }
  for (auto [id, body] : contexts) {
    LabelPairs pairs;
    Wire c(body);
    while (c.more()) {
      uint32_t f = 0, wt = 0;
      if (!c.tag(&f, &wt)) break;
      if (f != 1 || wt != 2) {
        c.skip(wt);
        continue;
      }
      Entry e;
      if (!readEntry(c.bytes(), &e)) break;
      auto k = strings.find(e.key);
      auto v = strings.find(static_cast<int64_t>(e.int_value));
      if (k != strings.end() && v != strings.end()) pairs.emplace_back(k->second, v->second);
    }
    if (!c.ok()) {
      *error = "malformed LabelsSnapshot context";
      return false;
    }
    contexts_[id] = std::move(pairs);
  }
  return true;
}

std::string_view ContextLabels::string(int64_t id) const {
  auto it = strings_.find(id);
  return it == strings_.end() ? std::string_view() : std::string_view(it->second);
}

const LabelPairs* ContextLabels::find(int64_t context_id) const {
  if (context_id == 0) return nullptr;
  auto it = contexts_.find(context_id);
  return it == contexts_.end() ? nullptr : &it->second;
}

}  // namespace proflow::jfr
