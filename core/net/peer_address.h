// Who is on the other end of a connection, as fairness needs it: the address without the port, so
// that a client's connections count together, and an IPv6 client's whole /64 (what one host or
// site is usually given), so that it cannot pose as many clients by changing its low bits.
#pragma once

#include <string>
#include <string_view>

namespace proflow::net {

// The client an address belongs to, from a peer as HTTP (HttpRequest::remote_address: "1.2.3.4:5",
// "[::1]:5") or gRPC (ServerContext::peer(): "ipv4:1.2.3.4:5", "ipv6:%5B::1%5D:5") spell it:
// "1.2.3.4", "2001:db8:1:2::/64". What is not an IP address (a Unix socket) is returned unchanged.
std::string clientGroup(std::string_view peer);

}  // namespace proflow::net
