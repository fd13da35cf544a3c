#include "core/net/endpoint.h"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/v6_only.hpp>
#include <cctype>
#include <vector>

namespace proflow::net {
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

Status bad(std::string_view text, const std::string& why) {
  return Status::invalid("invalid endpoint \"" + std::string(text) + "\": " + why);
}

bool validHostName(std::string_view h) {
  if (h.size() > 253) return false;
  for (char c : h) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != '_') return false;
  }
  return h.front() != '.' && h.front() != '-';
}

Status parsePort(std::string_view text, std::string_view p, uint16_t* port) {
  if (p.empty()) return bad(text, "missing port");
  if (p.size() > 5) return bad(text, "port out of range");
  uint32_t v = 0;
  for (char c : p) {
    if (c < '0' || c > '9') return bad(text, "port \"" + std::string(p) + "\" is not a number");
    v = v * 10 + static_cast<uint32_t>(c - '0');
  }
  if (v > 65535) return bad(text, "port " + std::to_string(v) + " out of range 0..65535");
  *port = static_cast<uint16_t>(v);
  return Status::ok();
}

Status tryListen(tcp::acceptor& acc, const tcp::endpoint& ep, int backlog) {
  boost::system::error_code ec;
  if (acc.is_open()) acc.close(ec);
  acc.open(ep.protocol(), ec);
  if (!ec && ep.address().is_v6() && ep.address().is_unspecified()) acc.set_option(asio::ip::v6_only(false), ec);
  if (!ec) acc.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acc.bind(ep, ec);
  if (!ec) acc.listen(backlog, ec);
  if (ec) {
    boost::system::error_code ignored;
    acc.close(ignored);
    return Status::unavailable(ec.message());
  }
  return Status::ok();
}

}  // namespace

std::string Endpoint::toString() const {
  if (host.find(':') != std::string::npos) return "[" + host + "]:" + std::to_string(port);
  return host + ":" + std::to_string(port);
}

Status parseEndpoint(std::string_view text, Endpoint* out) {
  if (text.empty()) return bad(text, "empty");
  if (text.find("://") != std::string_view::npos) return bad(text, "expected host:port, not a URL");
  Endpoint ep;
  std::string_view port;
  if (text.front() == '[') {
    size_t close = text.find(']');
    if (close == std::string_view::npos) return bad(text, "missing ']'");
    ep.host = std::string(text.substr(1, close - 1));
    boost::system::error_code ec;
    asio::ip::make_address_v6(ep.host, ec);
    if (ec) return bad(text, "\"" + ep.host + "\" is not an IPv6 address");
    if (close + 1 >= text.size() || text[close + 1] != ':') return bad(text, "missing \":port\" after ']'");
    port = text.substr(close + 2);
  } else {
    size_t colon = text.rfind(':');
    if (colon == std::string_view::npos) return bad(text, "missing \":port\"");
    std::string_view host = text.substr(0, colon);
    if (host.find(':') != std::string_view::npos) return bad(text, "IPv6 addresses must be written in brackets, e.g. [::1]:4317");
    if (!host.empty() && !validHostName(host)) return bad(text, "invalid host \"" + std::string(host) + "\"");
    ep.host = std::string(host);
    port = text.substr(colon + 1);
  }
  Status s = parsePort(text, port, &ep.port);
  if (!s.isOk()) return s;
  *out = std::move(ep);
  return Status::ok();
}

Status listenOn(tcp::acceptor& acceptor, const Endpoint& ep, int backlog) {
  std::vector<tcp::endpoint> candidates;
  if (ep.host.empty()) {
    candidates = {tcp::endpoint(asio::ip::address_v6::any(), ep.port), tcp::endpoint(asio::ip::address_v4::any(), ep.port)};
  } else {
    boost::system::error_code ec;
    auto addr = asio::ip::make_address(ep.host, ec);
    if (!ec) {
      candidates.emplace_back(addr, ep.port);
    } else {
      tcp::resolver resolver(acceptor.get_executor());
      auto results = resolver.resolve(ep.host, std::to_string(ep.port), tcp::resolver::passive, ec);
      if (ec) return Status::unavailable("cannot resolve \"" + ep.host + "\" to listen on " + ep.toString() + ": " + ec.message());
      for (const auto& r : results) {
        if (r.endpoint().address().is_v4()) candidates.push_back(r.endpoint());
      }
      for (const auto& r : results) {
        if (r.endpoint().address().is_v6()) candidates.push_back(r.endpoint());
      }
    }
  }
  Status last = Status::unavailable("no address");
  for (const auto& c : candidates) {
    last = tryListen(acceptor, c, backlog);
    if (last.isOk()) return last;
  }
  return Status::unavailable("cannot listen on " + ep.toString() + ": " + last.message());
}

}  // namespace proflow::net
