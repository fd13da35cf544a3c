// Small HTTP helpers shared by the client and the exporters: URL splitting and Retry-After.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/util/status.h"

namespace proflow::net {

struct Url {
  std::string scheme;  // "http" or "https"
  std::string host;    // without brackets
  uint16_t port = 0;   // defaulted from the scheme when absent
  std::string target;  // path + query, "/" when empty

  bool tls() const { return scheme == "https"; }
  // "host:port" for the Host header and pool keys (brackets for IPv6, port omitted when default).
  std::string authority() const;
};

// Accepts http:// and https:// URLs (case-insensitive scheme, bracketed IPv6 hosts, optional
// port). User info and fragments are rejected/dropped. kInvalidArgument on anything else.
Status parseUrl(std::string_view text, Url* out);

// Retry-After is either delta-seconds or an HTTP-date (RFC 9110 10.2.3; IMF-fixdate, plus the
// obsolete RFC 850 and asctime forms). Returns the wait from `now`; zero when absent, invalid or
// in the past.
std::chrono::milliseconds parseRetryAfter(std::string_view value,
                                          std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

// Retry-After value (whole seconds, rounded up, at least 1) for a retryable refusal.
std::string retryAfterSeconds(const Status& status);

}  // namespace proflow::net
