#include "receivers/pyroscope/ingest_params.h"
#include "core/util/ascii.h"
#include "core/util/utf8.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <limits>

namespace proflow::receivers::pyroscope {
namespace {

bool isAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool appNameChar(char c) { return isAlnum(c) || c == '_' || c == '.' || c == '-' || c == '/'; }
bool labelKeyChar(char c) { return isAlnum(c) || c == '_' || c == '.'; }

std::string quoted(std::string_view s) {
  constexpr size_t kMax = 128;  // error messages quote input; keep them short
  std::string out = "'" + std::string(s.substr(0, kMax)) + (s.size() > kMax ? "...'" : "'");
  return out;
}

Status checkChars(std::string_view what, std::string_view s, bool (*allowed)(char)) {
  for (char c : s)
    if (!allowed(c))
      return Status::invalid("invalid " + std::string(what) + " " + quoted(s) + ": character '" +
                             (static_cast<unsigned char>(c) < 0x20 ? std::string("\\x") + std::to_string(int(c))
                                                                   : std::string(1, c)) +
                             "' is not allowed");
  return Status::ok();
}

Status parseLabel(std::string_view item, Labels* labels) {
  const size_t eq = item.find('=');
  if (eq == std::string_view::npos) return Status::invalid("invalid name: label " + quoted(item) + " has no '='");
  const std::string_view key = trim(item.substr(0, eq));
  const std::string_view value = trim(item.substr(eq + 1));
  if (key.empty()) return Status::invalid("invalid name: label " + quoted(item) + " has an empty key");
  // `__*` keys are Pyroscope's own (e.g. __name__): dropped, except the session id it keeps too.
  if (key.size() >= 2 && key.substr(0, 2) == "__" && key != "__session_id__") return Status::ok();
  if (Status s = checkChars("label key", key, labelKeyChar); !s.isOk()) return s;
  auto same = [&](const auto& kv) { return kv.first == key; };
  labels->erase(std::remove_if(labels->begin(), labels->end(), same), labels->end());
  labels->emplace_back(std::string(key), std::string(value));
  return Status::ok();
}

bool allDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// value * mul without overflow; false on overflow.
bool scaled(uint64_t value, uint64_t mul, int64_t* out) {
  if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / mul) return false;
  *out = static_cast<int64_t>(value * mul);
  return true;
}

Status parseDate(std::string_view digits, int64_t* out_ns) {
  auto num = [&](size_t pos, size_t len) {
    int v = 0;
    std::from_chars(digits.data() + pos, digits.data() + pos + len, v);
    return v;
  };
  using namespace std::chrono;
  const year_month_day ymd{year(num(0, 4)), month(static_cast<unsigned>(num(4, 2))),
                           day(static_cast<unsigned>(num(6, 2)))};
  if (!ymd.ok()) return Status::invalid("invalid date " + quoted(digits) + " (expected YYYYMMDD)");
  // Nanoseconds since the epoch in 64 bits reach from 1677-09-21 to 2262-04-11.
  if (ymd.year() < year(1678) || ymd.year() > year(2261))
    return Status::invalid("date " + quoted(digits) + " out of range (years 1678 to 2261)");
  *out_ns = duration_cast<nanoseconds>(sys_days(ymd).time_since_epoch()).count();
  return Status::ok();
}

Status parseRelative(std::string_view text, int64_t now_ns, int64_t* out_ns) {
  std::string_view rest = text.substr(3);  // after "now"
  if (rest.empty()) {
    *out_ns = now_ns;
    return Status::ok();
  }
  const Status bad = Status::invalid("invalid time " + quoted(text) + ": expected now or now-<N>[s|m|h|d]");
  if (rest.front() != '-' || rest.size() < 3) return bad;
  const char unit = rest.back();
  const std::string_view digits = rest.substr(1, rest.size() - 2);
  uint64_t n = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || p != digits.data() + digits.size()) return bad;
  uint64_t unit_ns = 0;
  switch (unit) {
    case 's': unit_ns = 1'000'000'000ull; break;
    case 'm': unit_ns = 60'000'000'000ull; break;
    case 'h': unit_ns = 3'600'000'000'000ull; break;
    case 'd': unit_ns = 86'400'000'000'000ull; break;
    default: return bad;
  }
  int64_t delta = 0;
  if (!scaled(n, unit_ns, &delta) || delta > now_ns) return bad;
  *out_ns = now_ns - delta;
  return Status::ok();
}

}  // namespace


Status parseSeriesName(std::string_view name, std::string* app, Labels* labels) {
  labels->clear();
  if (!isValidUtf8(name)) return Status::invalid("invalid name: not valid UTF-8");
  const size_t open = name.find('{');
  const std::string_view app_part = trim(name.substr(0, open));
  if (app_part.empty()) return Status::invalid("invalid name " + quoted(name) + ": the application name is empty");
  if (Status s = checkChars("application name", app_part, appNameChar); !s.isOk()) return s;
  *app = std::string(app_part);
  if (open == std::string_view::npos) {
    if (name.find('}') != std::string_view::npos) return Status::invalid("invalid name " + quoted(name) + ": '}' without '{'");
    return Status::ok();
  }
  std::string_view rest = name.substr(open + 1);
  const size_t close = rest.find('}');
  if (close == std::string_view::npos) return Status::invalid("invalid name " + quoted(name) + ": missing '}'");
  std::string_view inner = rest.substr(0, close);
  if (inner.find('{') != std::string_view::npos) return Status::invalid("invalid name " + quoted(name) + ": nested '{'");
  if (!trim(rest.substr(close + 1)).empty())
    return Status::invalid("invalid name " + quoted(name) + ": unexpected text after '}'");
  while (!inner.empty()) {
    const size_t comma = inner.find(',');
    const std::string_view item = trim(inner.substr(0, comma));
    if (!item.empty())  // `{}` and a trailing comma are fine
      if (Status s = parseLabel(item, labels); !s.isOk()) return s;
    if (comma == std::string_view::npos) break;
    inner.remove_prefix(comma + 1);
  }
  return Status::ok();
}

Status parseIngestTime(std::string_view text, int64_t now_ns, int64_t* out_ns) {
  text = trim(text);
  if (text.substr(0, 3) == "now") return parseRelative(text, now_ns, out_ns);
  if (!allDigits(text)) return Status::invalid("invalid time " + quoted(text) + ": expected digits or now[-N<unit>]");
  if (text.size() == 8) return parseDate(text, out_ns);
  const std::string_view digits = text;
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  uint64_t mul = 1'000'000'000ull;  // seconds
  switch (text.size()) {
    case 13: mul = 1'000'000ull; break;  // ms
    case 16: mul = 1'000ull; break;      // µs
    case 19: mul = 1ull; break;          // ns
    default: break;
  }
  if (ec != std::errc() || !scaled(v, mul, out_ns)) return Status::invalid("time " + quoted(text) + " is out of range");
  return Status::ok();
}

Status parseIngestParams(const std::multimap<std::string, std::string>& query, int64_t now_ns, IngestParams* out) {
  auto get = [&](const char* key) -> const std::string* {
    auto it = query.find(key);
    return it == query.end() ? nullptr : &it->second;
  };
  const std::string* name = get("name");
  if (!name || trim(*name).empty()) return Status::invalid("the 'name' query parameter is required (app{k=v,...})");
  if (Status s = parseSeriesName(*name, &out->app_name, &out->labels); !s.isOk()) return s;
  out->from_ns = out->until_ns = now_ns;
  if (const auto* v = get("from"); v && !v->empty()) {
    if (Status s = parseIngestTime(*v, now_ns, &out->from_ns); !s.isOk()) return Status::invalid("from: " + s.message());
    out->from_given = true;
  }
  if (const auto* v = get("until"); v && !v->empty())
    if (Status s = parseIngestTime(*v, now_ns, &out->until_ns); !s.isOk()) return Status::invalid("until: " + s.message());
  if (const auto* v = get("sampleRate")) {
    int64_t rate = 0;
    auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), rate);
    if (ec == std::errc() && p == v->data() + v->size() && rate > 0) {
      out->sample_rate = rate;
      out->sample_rate_given = true;
    }
  }
  if (const auto* v = get("spyName"); v && !v->empty()) {
    if (!isValidUtf8(*v)) return Status::invalid("spyName is not valid UTF-8");
    out->spy_name = *v;
  }
  if (const auto* v = get("units"); v && !v->empty()) out->units = *v;
  if (const auto* v = get("aggregationType"); v && !v->empty()) out->aggregation = *v;
  if (const auto* v = get("format")) {
    out->format = toLowerAscii(*v);
  }
  return Status::ok();
}

}  // namespace proflow::receivers::pyroscope
