#include "core/net/request_origin.h"

#include "core/net/loopback.h"
#include "core/util/ascii.h"

namespace proflow::net {
namespace {

bool changesState(const std::string& method) { return method != "GET" && method != "HEAD" && method != "OPTIONS"; }

// "host[:port]" -> host; "[v6]:port" -> "[v6]".
std::string_view hostOf(std::string_view authority) {
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    return close == std::string_view::npos ? authority : authority.substr(0, close + 1);
  }
  return authority.substr(0, authority.find(':'));
}

// The host[:port] of an Origin ("scheme://host[:port]"), "" when it has none.
std::string_view originAuthority(std::string_view origin) {
  const size_t sep = origin.find("://");
  return sep == std::string_view::npos ? std::string_view() : origin.substr(sep + 3);
}

}  // namespace

Status checkSameOriginWrite(const HttpRequest& head) {
  if (!changesState(head.method)) return Status::ok();
  const std::string_view site = head.header("Sec-Fetch-Site");
  if (!site.empty()) {
    if (iequals(site, "same-origin") || iequals(site, "none")) return Status::ok();
    return Status(StatusCode::kPermissionDenied,
                  "cross-site " + head.method + " refused (Sec-Fetch-Site: " + std::string(site).substr(0, 32) + ")");
  }
  const std::string_view origin = head.header("Origin");
  if (origin.empty()) return Status::ok();
  const std::string_view authority = originAuthority(origin);
  if (!authority.empty() && iequals(authority, head.header("Host"))) return Status::ok();
  return Status(StatusCode::kPermissionDenied, "cross-origin " + head.method + " refused (Origin: " +
                                                   std::string(origin).substr(0, 64) + ")");
}

Status checkLoopbackHost(const HttpRequest& head) {
  auto it = head.headers.find("Host");
  if (it == head.headers.end()) return Status::ok();
  const std::string_view host = it->second;
  if (isLoopbackHost(hostOf(host))) return Status::ok();
  return Status(StatusCode::kPermissionDenied,
                "this server listens on loopback only and answers requests for localhost, 127.0.0.1 or [::1], not '" +
                    std::string(host).substr(0, 64) + "'");
}

std::function<Status(const HttpRequest& head)> browserRequestScreen(const std::string& endpoint) {
  if (!isLoopbackEndpoint(endpoint)) return checkSameOriginWrite;
  return [](const HttpRequest& head) {
    if (Status s = checkLoopbackHost(head); !s.isOk()) return s;
    return checkSameOriginWrite(head);
  };
}

}  // namespace proflow::net
