#include "exporters/load_balancing/resolver.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <memory>

namespace proflow::exporters::loadbalancing {

Status resolveBackends(const std::string& hostname, int port, std::vector<std::string>* out) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* raw = nullptr;
  if (int rc = ::getaddrinfo(hostname.c_str(), nullptr, &hints, &raw); rc != 0)
    return Status::unavailable("cannot resolve '" + hostname + "': " + ::gai_strerror(rc));
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> list(raw, &::freeaddrinfo);
  out->clear();
  for (const addrinfo* a = list.get(); a != nullptr; a = a->ai_next) {
    char text[INET6_ADDRSTRLEN] = {};
    if (a->ai_family == AF_INET) {
      ::inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(a->ai_addr)->sin_addr, text, sizeof text);
      out->push_back(std::string(text) + ":" + std::to_string(port));
    } else if (a->ai_family == AF_INET6) {
      ::inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(a->ai_addr)->sin6_addr, text, sizeof text);
      out->push_back("[" + std::string(text) + "]:" + std::to_string(port));
    }
  }
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
  if (out->empty()) return Status::unavailable("'" + hostname + "' has no IPv4/IPv6 address");
  return Status::ok();
}

}  // namespace proflow::exporters::loadbalancing
