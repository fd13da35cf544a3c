// "host:port" endpoints as written in config: parsing with validation (used by config validate()),
// and binding a listening socket (used by every server).
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/util/status.h"

namespace proflow::net {

struct Endpoint {
  std::string host;  // without brackets; "" = all interfaces
  uint16_t port = 0;

  // Back to config spelling: "host:port", "[::1]:port", ":port".
  std::string toString() const;
};

// Accepts "host:port", "[v6addr]:port" and ":port" (all interfaces). The port is decimal 0..65535
// (0 = any free port). Hosts are DNS names (letters, digits, '-', '.', '_'), IPv4 literals or
// bracketed IPv6 literals; an unbracketed IPv6 literal is rejected because its port is ambiguous.
// Errors are kInvalidArgument with a message that quotes the input.
Status parseEndpoint(std::string_view text, Endpoint* out);

// Resolves `ep` for listening and opens, binds (SO_REUSEADDR) and listens on `acceptor`. "" binds
// all interfaces (IPv6 dual-stack when available, else IPv4); a name that resolves to several
// addresses binds the first that works, IPv4 first. Errors (kUnavailable) name the address.
Status listenOn(boost::asio::ip::tcp::acceptor& acceptor, const Endpoint& ep, int backlog = 512);

}  // namespace proflow::net
