// What a browser sends on behalf of another site is told apart from what non-browser clients send:
// cross-site writes and rebound host names are refused, same-origin requests and clients without
// Origin / Sec-Fetch-Site pass; and the loopback tests behind them.
#include <gtest/gtest.h>

#include "core/net/loopback.h"
#include "core/net/request_origin.h"

namespace proflow::net {
namespace {

HttpRequest request(std::string method, HttpHeaders headers) {
  HttpRequest r;
  r.method = std::move(method);
  r.path = "/-/reload";
  r.headers = std::move(headers);
  return r;
}

TEST(LoopbackHost, NamesAndAddressesOfThisMachineOnly) {
  for (const char* h : {"localhost", "LocalHost", "127.0.0.1", "127.1.2.3", "::1", "[::1]"})
    EXPECT_TRUE(isLoopbackHost(h)) << h;
  for (const char* h : {"", "0.0.0.0", "10.0.0.1", "attacker.example", "localhost.attacker.example", "128.0.0.1",
                        "::", "[::ffff:10.0.0.1]", "127.0.0.1.nip.io"})
    EXPECT_FALSE(isLoopbackHost(h)) << h;
  EXPECT_TRUE(isLoopbackEndpoint("127.0.0.1:8888"));
  EXPECT_TRUE(isLoopbackEndpoint("localhost:0"));
  EXPECT_TRUE(isLoopbackEndpoint("[::1]:8888"));
  for (const char* e : {"0.0.0.0:8888", ":8888", "[::]:8888", "gateway.example:8888", "garbage"})
    EXPECT_FALSE(isLoopbackEndpoint(e)) << e;
}

TEST(SameOriginWrite, CrossSiteFormPostsAreRefusedWhateverTheBrowserSends) {
  // A modern browser: Sec-Fetch-Site says it all.
  for (const char* site : {"cross-site", "same-site"}) {
    Status s = checkSameOriginWrite(request("POST", {{"Sec-Fetch-Site", site}, {"Host", "127.0.0.1:8888"}}));
    EXPECT_EQ(s.code(), StatusCode::kPermissionDenied) << site;
  }
  // An older one: the Origin differs from the Host it sent to (a sandboxed frame sends "null").
  for (const char* origin : {"http://attacker.example", "http://127.0.0.1:9999", "null"})
    EXPECT_EQ(checkSameOriginWrite(request("POST", {{"Origin", origin}, {"Host", "127.0.0.1:8888"}})).code(),
              StatusCode::kPermissionDenied)
        << origin;
  EXPECT_FALSE(checkSameOriginWrite(request("PUT", {{"Origin", "http://a.example"}, {"Host", "b.example"}})).isOk());
}

TEST(SameOriginWrite, SameOriginPagesReadsAndNonBrowserClientsPass) {
  EXPECT_TRUE(checkSameOriginWrite(request("POST", {{"Sec-Fetch-Site", "same-origin"}})).isOk());
  EXPECT_TRUE(checkSameOriginWrite(request("POST", {{"Sec-Fetch-Site", "none"}})).isOk());
  EXPECT_TRUE(
      checkSameOriginWrite(request("POST", {{"Origin", "http://127.0.0.1:8888"}, {"Host", "127.0.0.1:8888"}})).isOk());
  EXPECT_TRUE(checkSameOriginWrite(request("POST", {{"Host", "127.0.0.1:8888"}})).isOk()) << "curl, SDKs";
  EXPECT_TRUE(checkSameOriginWrite(request("GET", {{"Sec-Fetch-Site", "cross-site"}})).isOk())
      << "reads are the browser's to withhold from the page";
}

TEST(LoopbackHostHeader, ReboundNamesAreRefusedLoopbackNamesPass) {
  for (const char* host : {"localhost", "localhost:8888", "127.0.0.1:8888", "[::1]:8888", "127.0.0.2"})
    EXPECT_TRUE(checkLoopbackHost(request("GET", {{"Host", host}})).isOk()) << host;
  for (const char* host : {"attacker.example", "attacker.example:8888", "", "10.1.2.3:8888", "localhost.evil:8888"})
    EXPECT_EQ(checkLoopbackHost(request("GET", {{"Host", host}})).code(), StatusCode::kPermissionDenied) << host;
  EXPECT_TRUE(checkLoopbackHost(request("GET", {})).isOk()) << "HTTP/1.0 without Host";
}

TEST(BrowserRequestScreen, HostChecksOnlyOnLoopbackEndpoints) {
  const auto loopback = browserRequestScreen("127.0.0.1:8888");
  const auto everywhere = browserRequestScreen("0.0.0.0:8888");
  const auto rebound = request("GET", {{"Host", "attacker.example:8888"}});
  EXPECT_FALSE(loopback(rebound).isOk());
  EXPECT_TRUE(everywhere(rebound).isOk()) << "a server on every interface is reached by many names";
  const auto forged = request("POST", {{"Host", "127.0.0.1:8888"}, {"Sec-Fetch-Site", "cross-site"}});
  EXPECT_FALSE(loopback(forged).isOk());
  EXPECT_FALSE(everywhere(forged).isOk());
}

}  // namespace
}  // namespace proflow::net
