#include "core/formats/jfr/generated_names.h"

#include <cstddef>
#include <span>

#include "core/util/hex.h"

namespace proflow::jfr {
namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlnum(char c) { return isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isSeparator(char c) { return c == '.' || c == '/'; }

// What follows a rule's marker and is dropped with it.
enum class Tail { kDigits, kDollarDigits, kHex, kAlnum };

struct Rule {
  std::string_view marker;  // kept but for its trailing `$`s
  Tail tail;
  bool at_part_start;  // the marker must begin a package or class name part
};

// Rules by the marker's first byte ('$' or 'G'); the hidden-class address and jdk.proxyN are below.
constexpr Rule kDollarRules[] = {
    {"$$Lambda", Tail::kDollarDigits, false},
    {"$Proxy", Tail::kDigits, true},
    {"$$EnhancerByCGLIB$$", Tail::kHex, false},
    {"$$FastClassByCGLIB$$", Tail::kHex, false},
    {"$$EnhancerBySpringCGLIB$$", Tail::kHex, false},
    {"$$FastClassBySpringCGLIB$$", Tail::kHex, false},
    {"$ByteBuddy$", Tail::kAlnum, false},
};
constexpr Rule kAccessorRules[] = {
    {"GeneratedMethodAccessor", Tail::kDigits, true},
    {"GeneratedConstructorAccessor", Tail::kDigits, true},
    {"GeneratedSerializationConstructorAccessor", Tail::kDigits, true},
};

bool atPartStart(std::string_view s, size_t i) { return i == 0 || isSeparator(s[i - 1]); }
// A generated part ends where the identifier does (a separator, `$`, `/0x…`, or the end).
bool endsPart(std::string_view s, size_t i) { return i == s.size() || !(isAlnum(s[i]) || s[i] == '_'); }

// Length of the tail at `i` (0 when it is not there in full).
size_t tailAt(std::string_view s, size_t i, Tail tail) {
  size_t j = i;
  if (tail == Tail::kDollarDigits) {
    if (j == s.size() || s[j] != '$') return 0;
    ++j;
  }
  const size_t first = j;
  bool (*in)(char) = tail == Tail::kHex ? isHexDigit : tail == Tail::kAlnum ? isAlnum : isDigit;
  while (j < s.size() && in(s[j])) ++j;
  if (j == first || !endsPart(s, j)) return 0;
  return j - i;
}

// On a match at `i`: s[i, i + *keep) stays and s[i + *keep, i + *skip) is dropped.
bool ruleAt(std::string_view s, size_t i, std::span<const Rule> rules, size_t* keep, size_t* skip) {
  for (const Rule& r : rules) {
    if (s.compare(i, r.marker.size(), r.marker) != 0) continue;
    if (r.at_part_start && !atPartStart(s, i)) continue;
    const size_t tail = tailAt(s, i + r.marker.size(), r.tail);
    if (tail == 0) continue;
    *keep = r.marker.find_last_not_of('$') + 1;
    *skip = r.marker.size() + tail;
    return true;
  }
  return false;
}

bool matchAt(std::string_view s, size_t i, size_t* keep, size_t* skip) {
  switch (s[i]) {
    case '$':
      return ruleAt(s, i, kDollarRules, keep, skip);
    case 'G':
      return atPartStart(s, i) && ruleAt(s, i, kAccessorRules, keep, skip);
    case '/':
    case '.':
    case '+': {
      // A hidden class's address ("0x<hex>") or, on JDK 8, a lambda class's identity hash (decimal):
      // no Java identifier starts with a digit, so such a part is always the JVM's.
      const size_t hex = s.compare(i + 1, 2, "0x") == 0 ? tailAt(s, i + 3, Tail::kHex) : 0;
      const size_t tail = hex != 0 ? 2 + hex : tailAt(s, i + 1, Tail::kDigits);
      if (tail == 0) return false;
      *keep = 0;
      *skip = 1 + tail;
      return true;
    }
    case 'p': {
      // jdk.proxyN: the module-per-loader packages of dynamic proxies (JDK 16+).
      if (i < 4 || !atPartStart(s, i - 4) || s.compare(i - 4, 3, "jdk") != 0 || !isSeparator(s[i - 1])) return false;
      if (s.compare(i, 5, "proxy") != 0) return false;
      size_t j = i + 5;
      while (j < s.size() && isDigit(s[j])) ++j;
      if (j == i + 5 || j == s.size() || !isSeparator(s[j])) return false;
      *keep = 5;
      *skip = j - i;
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

bool mergeGeneratedNames(std::string_view class_name, std::string* out) {
  std::string merged;
  bool changed = false;
  size_t copied = 0;  // class_name[copied, i) is still to be appended
  for (size_t i = 0; i < class_name.size();) {
    size_t keep = 0, skip = 0;
    if (!matchAt(class_name, i, &keep, &skip)) {
      ++i;
      continue;
    }
    if (!changed) merged.reserve(class_name.size());
    changed = true;
    merged.append(class_name.substr(copied, i + keep - copied));
    i += skip;
    copied = i;
  }
  if (!changed) return false;
  merged.append(class_name.substr(copied));
  *out = std::move(merged);
  return true;
}

}  // namespace proflow::jfr
