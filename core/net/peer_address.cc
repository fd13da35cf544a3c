#include "core/net/peer_address.h"

#include <boost/asio/ip/address.hpp>

#include "core/util/percent_encoding.h"

namespace proflow::net {
namespace {

// The host part of "host:port", "[v6]:port" or a bare host.
std::string_view withoutPort(std::string_view s) {
  if (!s.empty() && s.front() == '[') {
    const size_t close = s.find(']');
    return close == std::string_view::npos ? s : s.substr(1, close - 1);
  }
  const size_t colon = s.rfind(':');
  // More than one colon and no brackets: a bare IPv6 address.
  if (colon == std::string_view::npos || s.find(':') != colon) return s;
  return s.substr(0, colon);
}

}  // namespace

std::string clientGroup(std::string_view peer) {
  std::string decoded;
  for (std::string_view scheme : {"ipv4:", "ipv6:"}) {
    if (peer.substr(0, scheme.size()) != scheme) continue;
    decoded = percentDecode(peer.substr(scheme.size())).value_or(std::string(peer.substr(scheme.size())));
    peer = decoded;
    break;
  }
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(std::string(withoutPort(peer)), ec);
  if (ec) return std::string(peer);
  if (address.is_v4()) return address.to_string();
  const auto v6 = address.to_v6();
  if (v6.is_v4_mapped()) return boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6).to_string();
  auto bytes = v6.to_bytes();
  for (size_t i = 8; i < bytes.size(); ++i) bytes[i] = 0;
  return boost::asio::ip::address_v6(bytes).to_string() + "/64";
}

}  // namespace proflow::net
