#include "processors/profilemetrics/metric_naming.h"

#include <algorithm>

#include "core/util/hex.h"

namespace proflow::processors::profilemetrics {
namespace {

constexpr size_t kMaxWord = 64;  // a type or unit word in a metric name

// [a-z0-9_] only (lower case), at most kMaxWord characters; "" stays "".
std::string nameWord(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, kMaxWord)) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u >= 'A' && u <= 'Z') out += static_cast<char>(u - 'A' + 'a');
    else if ((u >= 'a' && u <= 'z') || (u >= '0' && u <= '9')) out += c;
    else out += '_';
  }
  return out;
}

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Length of the valid UTF-8 sequence at s[i], 0 when invalid.
size_t utf8Length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  if (n == 2 && c < 0xC2) return 0;                             // overlong
  if (n == 3 && c == 0xE0 && b(i + 1) < 0xA0) return 0;         // overlong
  if (n == 3 && c == 0xED && b(i + 1) >= 0xA0) return 0;        // surrogate
  if (n == 4 && (c > 0xF4 || (c == 0xF0 && b(i + 1) < 0x90) || (c == 0xF4 && b(i + 1) >= 0x90))) return 0;
  return n;
}

}  // namespace

SampleTypeName nameSampleType(std::string_view type, std::string_view unit) {
  SampleTypeName n;
  std::string word = nameWord(type);
  while (!word.empty() && word.back() == '_') word.pop_back();
  if (word.empty()) word = "unknown";
  else if (!(word[0] >= 'a' && word[0] <= 'z')) word = "type_" + word;
  const std::string u = nameWord(unit);
  if (u == "nanoseconds" || u == "ns") n = {"", "seconds", 1e9};
  else if (u == "microseconds" || u == "us") n = {"", "seconds", 1e6};
  else if (u == "milliseconds" || u == "ms") n = {"", "seconds", 1e3};
  else if (u == "seconds" || u == "s") n = {"", "seconds", 1};
  else if (u == "bytes") n = {"", "bytes", 1};
  else if (u.empty() || u == "count" || u == "counts") n = {"", "", 1};
  else n = {"", u, 1};
  // "alloc_space" + "bytes" -> alloc_space_bytes; a type already ending in its unit keeps one.
  n.stem = n.unit.empty() || endsWith(word, "_" + n.unit) ? word : word + "_" + n.unit;
  return n;
}

std::string totalFamily(const SampleTypeName& n) { return "proflow_profile_" + n.stem + "_total"; }
std::string selfFamily(const SampleTypeName& n) { return "proflow_profile_function_self_" + n.stem + "_total"; }
std::string inclusiveFamily(const SampleTypeName& n) {
  return "proflow_profile_function_inclusive_" + n.stem + "_total";
}

std::string capLabelValue(std::string_view v, size_t max_bytes, bool* truncated) {
  std::string out;
  out.reserve(std::min(v.size(), max_bytes));
  *truncated = false;
  for (size_t i = 0; i < v.size();) {
    size_t n = utf8Length(v, i);
    std::string_view piece = n ? v.substr(i, n) : std::string_view("?");
    if (out.size() + piece.size() > max_bytes) {
      *truncated = true;
      break;
    }
    out += piece;
    i += n ? n : 1;
  }
  return out;
}

std::string idHex(std::string_view bytes) {
  if (std::all_of(bytes.begin(), bytes.end(), [](char c) { return c == 0; })) return "";
  return hexEncode(bytes);
}

}  // namespace proflow::processors::profilemetrics
