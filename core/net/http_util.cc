#include "core/net/http_util.h"

#include <algorithm>

#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "core/net/endpoint.h"
#include "core/util/ascii.h"

namespace proflow::net {
namespace {

Status badUrl(std::string_view text, const std::string& why) {
  return Status::invalid("invalid URL \"" + std::string(text) + "\": " + why);
}

int monthIndex(const char* m) {
  static const std::array<const char*, 12> months = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (int i = 0; i < 12; ++i) {
    if (std::strncmp(m, months[i], 3) == 0) return i;
  }
  return -1;
}

// Parses the three HTTP-date forms into seconds since the epoch; false when none matches.
bool parseHttpDate(const std::string& s, int64_t* epoch) {
  int day = 0, year = 0, h = 0, mi = 0, sec = 0;
  char mon[4] = {0}, wk[16] = {0};
  int n = 0;
  bool ok = std::sscanf(s.c_str(), "%3s, %2d %3s %4d %2d:%2d:%2d GMT%n", wk, &day, mon, &year, &h, &mi, &sec, &n) == 7;
  if (!ok) {  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
    ok = std::sscanf(s.c_str(), "%15[A-Za-z], %2d-%3s-%2d %2d:%2d:%2d GMT%n", wk, &day, mon, &year, &h, &mi, &sec, &n) == 7;
    if (ok) year += year < 70 ? 2000 : 1900;
  }
  if (!ok) {  // asctime: Sun Nov  6 08:49:37 1994
    ok = std::sscanf(s.c_str(), "%3s %3s %d %2d:%2d:%2d %4d%n", wk, mon, &day, &h, &mi, &sec, &year, &n) == 7;
  }
  if (!ok || static_cast<size_t>(n) != s.size()) return false;
  int m = monthIndex(mon);
  if (m < 0 || day < 1 || day > 31 || h > 23 || mi > 59 || sec > 60) return false;
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = m;
  tm.tm_mday = day;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = sec;
  *epoch = static_cast<int64_t>(timegm(&tm));
  return true;
}

}  // namespace

std::string Url::authority() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  bool default_port = (scheme == "http" && port == 80) || (scheme == "https" && port == 443);
  return default_port ? h : h + ":" + std::to_string(port);
}

Status parseUrl(std::string_view text, Url* out) {
  size_t sep = text.find("://");
  if (sep == std::string_view::npos) return badUrl(text, "missing scheme (http:// or https://)");
  Url u;
  u.scheme = toLowerAscii(text.substr(0, sep));
  if (u.scheme != "http" && u.scheme != "https") return badUrl(text, "unsupported scheme \"" + u.scheme + "\"");
  std::string_view rest = text.substr(sep + 3);
  rest = rest.substr(0, rest.find('#'));
  size_t slash = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, slash);
  u.target = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  if (u.target.front() == '?') u.target.insert(0, "/");
  if (authority.find('@') != std::string_view::npos) return badUrl(text, "user info is not supported");
  if (authority.empty()) return badUrl(text, "missing host");
  bool has_port = !authority.empty() && authority.back() != ']' && authority.find(':') != std::string_view::npos;
  std::string hostport(authority);
  if (!has_port) hostport += u.tls() ? ":443" : ":80";
  Endpoint ep;
  Status s = parseEndpoint(hostport, &ep);
  if (!s.isOk()) return badUrl(text, s.message());
  if (ep.host.empty()) return badUrl(text, "missing host");
  u.host = ep.host;
  u.port = ep.port;
  *out = std::move(u);
  return Status::ok();
}

std::chrono::milliseconds parseRetryAfter(std::string_view value, std::chrono::system_clock::time_point now) {
  value = trim(value);
  if (value.empty()) return std::chrono::milliseconds(0);
  if (std::isdigit(static_cast<unsigned char>(value.front()))) {
    int64_t secs = 0;
    for (char c : value) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return std::chrono::milliseconds(0);
      secs = std::min<int64_t>(secs * 10 + (c - '0'), 365LL * 24 * 3600);  // clamp absurd values
    }
    return std::chrono::seconds(secs);
  }
  int64_t epoch = 0;
  if (!parseHttpDate(std::string(value), &epoch)) return std::chrono::milliseconds(0);
  auto at = std::chrono::system_clock::time_point(std::chrono::seconds(epoch));
  if (at <= now) return std::chrono::milliseconds(0);
  return std::chrono::duration_cast<std::chrono::milliseconds>(at - now);
}

std::string retryAfterSeconds(const Status& status) {
  return std::to_string(std::max<int64_t>(1, (status.retryAfter().count() + 999) / 1000));
}

}  // namespace proflow::net
