#include "core/net/loopback.h"

#include <arpa/inet.h>

#include <string>

#include "core/net/endpoint.h"
#include "core/util/ascii.h"

namespace proflow::net {

bool isLoopbackHost(std::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (iequals(host, "localhost")) return true;
  const std::string text(host);
  in_addr v4{};
  if (inet_pton(AF_INET, text.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  return inet_pton(AF_INET6, text.c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

bool isLoopbackEndpoint(std::string_view endpoint) {
  Endpoint ep;
  if (!parseEndpoint(endpoint, &ep).isOk() || ep.host.empty()) return false;
  return isLoopbackHost(ep.host);
}

}  // namespace proflow::net
