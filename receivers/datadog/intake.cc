#include "receivers/datadog/intake.h"

#include <algorithm>
#include <cctype>
#include <ctime>

#include "core/net/multipart.h"
#include "core/util/ascii.h"
#include "core/util/json/json_document.h"

namespace proflow::receivers::datadog {
namespace {

void addTag(std::string_view tag, Tags* out) {
  tag = trim(tag);
  if (tag.empty()) return;
  const size_t colon = tag.find(':');
  if (colon == std::string_view::npos) {
    out->emplace_back(std::string(tag), std::string());
    return;
  }
  const std::string_view key = trim(tag.substr(0, colon));
  if (key.empty()) return;
  out->emplace_back(std::string(key), std::string(trim(tag.substr(colon + 1))));
}

bool digits(std::string_view s, size_t pos, size_t n, int* v) {
  if (pos + n > s.size()) return false;
  *v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    *v = *v * 10 + (s[i] - '0');
  }
  return true;
}

Status windowField(std::string_view what, std::string_view text, int64_t* ns) {
  if (text.empty()) return Status::ok();
  if (!parseRfc3339(text, ns))
    return Status::invalid(std::string(what) + ": '" + std::string(text.substr(0, 64)) + "' is not an RFC 3339 time");
  return Status::ok();
}

const net::FormPart* findPart(const std::vector<net::FormPart>& parts, std::string_view name) {
  for (const auto& p : parts)
    if (p.name == name) return &p;
  for (const auto& p : parts)  // Java: part "main", listed (and named in filename) as "main.jfr"
    if (!p.filename.empty() && p.filename == name && p.name != "event") return &p;
  return nullptr;
}

// Adds the part event.json lists as `name`. Each part is converted at most once: a part listed
// twice (by its name, or once by name and once by file name) is refused, so one attachment cannot be
// inflated and decoded once per mention.
Status addListedAttachment(const std::string& name, const std::vector<net::FormPart>& parts, Intake* out) {
  const std::string quoted = "'" + name.substr(0, 64) + (name.size() > 64 ? "...'" : "'");
  const net::FormPart* part = findPart(parts, name);
  if (!part) return Status::invalid("attachment " + quoted + " listed in event.json has no part in the upload");
  for (const IntakeAttachment& a : out->attachments) {
    if (a.data.data() != part->data.data()) continue;
    return Status::invalid(a.name == name ? "event.json lists attachment " + quoted + " more than once"
                                          : "event.json lists attachments '" + a.name.substr(0, 64) + "' and " +
                                                quoted + ", which name the same part");
  }
  out->attachments.push_back({name, part->data});  // at most one per part: kMaxParts in all
  return Status::ok();
}

// event.json is a few hundred bytes (its attachment list names at most kMaxParts parts): these
// bounds refuse a document built to make the parse itself expensive before it grows.
constexpr json::Limits kEventLimits{.max_bytes = 1u << 20, .max_depth = 16, .max_values = 10'000,
                                    .max_string_bytes = 256u << 10};

Status parseEvent(const net::FormPart& event, const std::vector<net::FormPart>& parts, Intake* out) {
  json::Document doc;
  if (Status s = doc.parse(event.data, kEventLimits); !s.isOk()) return Status::invalid("event.json: " + s.message());
  const json::Value root = doc.root();
  if (!root.isObject()) return Status::invalid("event.json is not a JSON object");
  auto str = [&](const char* key) -> std::string {
    const auto v = root.member(key);
    return v && v->isString() ? std::string(v->text()) : std::string();
  };
  out->family = str("family");
  if (Status s = windowField("event.json start", str("start"), &out->start_ns); !s.isOk()) return s;
  if (Status s = windowField("event.json end", str("end"), &out->end_ns); !s.isOk()) return s;
  splitTags(str("tags_profiler"), &out->tags);
  if (Status s = checkTagCount(out->tags, "event.json 'tags_profiler'"); !s.isOk()) return s;
  const auto att = root.member("attachments");
  if (!att || !att->isArray())
    return Status::invalid("event.json: 'attachments' (the list of attachment part names) is missing");
  Status listed;
  att->forEachElement([&](json::Value v) {
    if (!listed.isOk()) return;
    if (!v.isString() || v.text().empty()) {
      listed = Status::invalid("event.json: 'attachments' must hold part names (strings)");
      return;
    }
    listed = addListedAttachment(std::string(v.text()), parts, out);
  });
  return listed;
}

// The older form: fields and data[i] file parts.
Status parseLegacy(const std::vector<net::FormPart>& parts, Intake* out) {
  out->legacy = true;
  std::vector<std::pair<std::string, std::string>> types;  // "types[0]" -> "cpu"
  for (const auto& p : parts) {
    const std::string_view value = trim(p.data);
    if (p.name == "runtime") out->family = std::string(value);
    else if (p.name == "recording-start") {
      if (Status s = windowField("recording-start", value, &out->start_ns); !s.isOk()) return s;
    } else if (p.name == "recording-end") {
      if (Status s = windowField("recording-end", value, &out->end_ns); !s.isOk()) return s;
    } else if (p.name == "tags[]") {
      addTag(value, &out->tags);
    } else if (p.name.rfind("types[", 0) == 0) {
      types.emplace_back("data[" + p.name.substr(6), std::string(value));
    } else if (p.name == "format" && value != "pprof") {
      return Status::invalid("format '" + std::string(value.substr(0, 32)) + "' is not supported (pprof is)");
    }
  }
  for (const auto& p : parts) {
    if (p.name.rfind("data[", 0) != 0) continue;
    std::string name = p.name.substr(5, p.name.size() > 6 ? p.name.size() - 6 : 0);  // "data[auto.pprof]" -> auto.pprof
    for (const auto& [data_name, type] : types)
      if (data_name == p.name && !type.empty()) name = type;
    out->attachments.push_back({name, p.data});
  }
  if (out->attachments.empty()) return Status::invalid("older upload form without a data[...] part");
  return Status::ok();
}

}  // namespace

Status checkTagCount(const Tags& tags, std::string_view where) {
  if (tags.size() <= kMaxTags) return Status::ok();
  return Status::invalid(std::string(where) + " holds " + std::to_string(tags.size()) + " tags; at most " +
                         std::to_string(kMaxTags) + " are accepted");
}

void splitTags(std::string_view joined, Tags* out) {
  size_t pos = 0;
  while (pos <= joined.size()) {
    const size_t comma = std::min(joined.find(',', pos), joined.size());
    addTag(joined.substr(pos, comma - pos), out);
    pos = comma + 1;
  }
}

bool parseRfc3339(std::string_view s, int64_t* ns) {
  int y, mo, d, h, mi, sec;
  if (!digits(s, 0, 4, &y) || s.size() < 19 || s[4] != '-' || !digits(s, 5, 2, &mo) || s[7] != '-' ||
      !digits(s, 8, 2, &d) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || !digits(s, 11, 2, &h) ||
      s[13] != ':' || !digits(s, 14, 2, &mi) || s[16] != ':' || !digits(s, 17, 2, &sec))
    return false;
  if (y < 1970 || y > 2262 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) return false;
  size_t pos = 19;
  int64_t frac = 0;
  if (pos < s.size() && s[pos] == '.') {
    int n = 0;
    for (++pos; pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos])); ++pos, ++n)
      if (n < 9) frac = frac * 10 + (s[pos] - '0');
    if (n == 0) return false;
    for (; n < 9; ++n) frac *= 10;
  }
  int64_t offset_s = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh, om;
    if (!digits(s, pos + 1, 2, &oh) || pos + 3 >= s.size() || s[pos + 3] != ':' || !digits(s, pos + 4, 2, &om))
      return false;
    offset_s = (s[pos] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
    pos += 6;
  } else {
    return false;
  }
  if (pos != s.size()) return false;
  std::tm tm{};
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = sec;
  const int64_t secs = static_cast<int64_t>(timegm(&tm)) - offset_s;
  if (secs < 0 || secs > 9'000'000'000LL) return false;
  *ns = secs * 1'000'000'000LL + frac;
  return true;
}

Status parseIntake(std::string_view content_type, std::string_view body, Intake* out) {
  *out = Intake{};
  const std::string boundary = net::multipartBoundary(content_type);
  if (boundary.empty())
    return Status::invalid("expected Content-Type multipart/form-data with a boundary, got '" +
                           std::string(content_type.substr(0, 80)) + "'");
  std::vector<net::FormPart> parts;
  if (Status s = net::parseMultipart(body, boundary, &parts, kMaxParts); !s.isOk()) return s;
  for (const auto& p : parts)
    if (p.name == "event") return parseEvent(p, parts, out);
  const bool legacy = std::any_of(parts.begin(), parts.end(), [](const net::FormPart& p) {
    return p.name.rfind("data[", 0) == 0;
  });
  if (!legacy)
    return Status::invalid("the 'event' part (event.json) is missing, and no data[...] part of the older form "
                           "is there either");
  return parseLegacy(parts, out);
}

}  // namespace proflow::receivers::datadog
