#include "core/net/endpoint.h"

#include <gtest/gtest.h>

namespace proflow::net {
namespace {

Endpoint parsed(std::string_view s) {
  Endpoint ep;
  Status st = parseEndpoint(s, &ep);
  EXPECT_TRUE(st.isOk()) << s << ": " << st.toString();
  return ep;
}

std::string error(std::string_view s) {
  Endpoint ep;
  Status st = parseEndpoint(s, &ep);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << s;
  return st.message();
}

TEST(Endpoint, ParsesHostPortForms) {
  auto a = parsed("127.0.0.1:4317");
  EXPECT_EQ(a.host, "127.0.0.1");
  EXPECT_EQ(a.port, 4317);
  auto b = parsed("[::1]:4318");
  EXPECT_EQ(b.host, "::1");
  EXPECT_EQ(b.port, 4318);
  auto c = parsed(":8888");
  EXPECT_EQ(c.host, "");
  EXPECT_EQ(c.port, 8888);
  auto d = parsed("gateway.svc_internal-1.local:0");
  EXPECT_EQ(d.host, "gateway.svc_internal-1.local");
  EXPECT_EQ(d.port, 0);
  EXPECT_EQ(parsed("localhost:65535").port, 65535);
}

TEST(Endpoint, ToStringRoundTrips) {
  for (const char* s : {"127.0.0.1:4317", "[::1]:4318", ":8888", "[fe80::1]:1"}) EXPECT_EQ(parsed(s).toString(), s);
}

TEST(Endpoint, RejectsBadInputWithReason) {
  EXPECT_NE(error("").find("empty"), std::string::npos);
  EXPECT_NE(error("localhost").find("missing \":port\""), std::string::npos);
  EXPECT_NE(error("localhost:").find("missing port"), std::string::npos);
  EXPECT_NE(error("localhost:http").find("not a number"), std::string::npos);
  EXPECT_NE(error("localhost:65536").find("out of range"), std::string::npos);
  EXPECT_NE(error("localhost:123456").find("out of range"), std::string::npos);
  EXPECT_NE(error("::1:4317").find("brackets"), std::string::npos);
  EXPECT_NE(error("[::1]4317").find("after ']'"), std::string::npos);
  EXPECT_NE(error("[::1:4317").find("missing ']'"), std::string::npos);
  EXPECT_NE(error("[not-v6]:4317").find("not an IPv6 address"), std::string::npos);
  EXPECT_NE(error("http://host:80").find("not a URL"), std::string::npos);
  EXPECT_NE(error("ho st:80").find("invalid host"), std::string::npos);
  EXPECT_NE(error("-1:-1").find("ho"), std::string::npos);
}

TEST(Endpoint, ListenOnPortZeroAndReportsConflicts) {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor a(ioc), b(ioc);
  ASSERT_TRUE(listenOn(a, parsed("127.0.0.1:0")).isOk());
  uint16_t port = a.local_endpoint().port();
  EXPECT_NE(port, 0);
  Endpoint same{"127.0.0.1", port};
  Status s = listenOn(b, same);
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_NE(s.message().find("127.0.0.1:" + std::to_string(port)), std::string::npos) << s.message();
  EXPECT_FALSE(b.is_open());
}

TEST(Endpoint, ListenOnLocalhostName) {
  boost::asio::io_context ioc;
  boost::asio::ip::tcp::acceptor a(ioc);
  Status s = listenOn(a, parsed("localhost:0"));
  ASSERT_TRUE(s.isOk()) << s.toString();
  EXPECT_TRUE(a.local_endpoint().address().is_loopback());
}

}  // namespace
}  // namespace proflow::net
