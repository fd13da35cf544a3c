// Plain request/response values shared by the HTTP server and client; no Beast types leak out.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace proflow::net {

class InFlightLease;  // in_flight_budget.h

// Header names compare case-insensitively (RFC 9110 5.1).
struct CaseInsensitiveLess {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const;
};

using HttpHeaders = std::multimap<std::string, std::string, CaseInsensitiveLess>;

// First value of `name`, "" when absent.
std::string_view headerValue(const HttpHeaders& h, std::string_view name);

struct HttpRequest {
  std::string method;  // "POST"
  std::string target;  // as sent: "/ingest?name=app&from=1"
  std::string path;    // target before '?', not decoded: "/ingest"
  std::multimap<std::string, std::string> query;  // percent-decoded ('+' = space)
  HttpHeaders headers;
  std::string body;        // after Content-Encoding decompression
  size_t wire_bytes = 0;   // body bytes as received
  std::string remote_address;  // "ip:port"
  // The request's claim on the receiver's in-flight budget (null without one); released when the
  // last copy is gone, so keep the request (or this pointer) until the work is done.
  std::shared_ptr<InFlightLease> in_flight;

  std::string_view header(std::string_view name) const { return headerValue(headers, name); }
  // First value of a query parameter, "" when absent.
  std::string_view queryValue(std::string_view name) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type;  // omitted when empty
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra headers
  // Kept until the response is written, then released: e.g. the in-flight claim on a body being sent.
  std::shared_ptr<const void> held_until_written;

  static HttpResponse text(int status, std::string body) {
    return {status, "text/plain; charset=utf-8", std::move(body), {}, {}};
  }
};

// Splits "a=1&b=x%20y" into decoded pairs ('+' is a space); a key or value with a malformed
// escape ("100%") is kept as it was written.
std::multimap<std::string, std::string> parseQuery(std::string_view query);

}  // namespace proflow::net
