#include "core/net/http_client.h"

#include <gtest/gtest.h>

#include <boost/asio/ssl.hpp>
#include <future>

#include "core/net/http_server.h"
#include "core/net/http_util.h"
#include "tests/core/net/http_test_util.h"
#include "tests/support/temp_dir.h"

namespace proflow::net {
namespace {

using namespace std::chrono_literals;
using testing::IoThreads;

class HttpClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    HttpServerOptions o;
    o.read_header_timeout = read_header_timeout_;
    server_ = std::make_unique<HttpServer>(io_.ioc, o, nullptr);
    server_->route("POST", "/echo", [](HttpRequest&& r, Responder respond) {
      HttpResponse res{200, "text/plain", r.body, {{"X-Remote", r.remote_address}, {"X-Ua", std::string(r.header("User-Agent"))}}};
      respond(std::move(res));
    });
    server_->route("GET", "/status", [](HttpRequest&& r, Responder respond) {
      HttpResponse res = HttpResponse::text(std::stoi(std::string(r.queryValue("code"))), "because");
      if (!r.queryValue("retry").empty()) res.headers.emplace_back("Retry-After", std::string(r.queryValue("retry")));
      respond(std::move(res));
    });
    server_->route("GET", "/big", [](HttpRequest&&, Responder respond) {
      respond(HttpResponse::text(200, std::string(5u << 20, 'b')));
    });
    server_->route("GET", "/gzip", [](HttpRequest&&, Responder respond) {
      HttpResponse res{200, "text/plain", "", {{"Content-Encoding", "gzip"}}};
      EXPECT_TRUE(compression::compress(compression::Codec::kGzip, std::string(1000, 'z'), res.body).isOk());
      respond(std::move(res));
    });
    server_->route("GET", "/hold", [this](HttpRequest&&, Responder respond) { held_.set_value(respond); });
    ASSERT_TRUE(server_->start().isOk());
    base_ = "http://127.0.0.1:" + std::to_string(server_->port());
  }
  void TearDown() override {
    server_->stop();
    io_.join();
  }

  std::chrono::milliseconds read_header_timeout_ = 60s;
  IoThreads io_;
  std::unique_ptr<HttpServer> server_;
  std::string base_;
  std::promise<Responder> held_;
};

TEST_F(HttpClientTest, PostsAndReusesTheConnection) {
  HttpClient client({});
  auto a = client.request("POST", base_ + "/echo", {{"Content-Type", "text/plain"}}, "hello", 5s);
  ASSERT_TRUE(a.status.isOk()) << a.status.toString();
  EXPECT_EQ(a.http_status, 200);
  EXPECT_EQ(a.body, "hello");
  EXPECT_EQ(headerValue(a.headers, "content-type"), "text/plain");
  EXPECT_EQ(headerValue(a.headers, "X-Ua"), "proflow");
  auto b = client.request("POST", base_ + "/echo", {}, "again", 5s);
  ASSERT_TRUE(b.status.isOk());
  EXPECT_EQ(b.body, "again");
  // Same client port: the keep-alive connection was reused.
  EXPECT_EQ(headerValue(a.headers, "X-Remote"), headerValue(b.headers, "X-Remote"));
  EXPECT_TRUE(b.toStatus().isOk());
}

TEST_F(HttpClientTest, HttpErrorsMapToStatusWithRetryAfter) {
  HttpClient client({});
  auto r = client.request("GET", base_ + "/status?code=429&retry=7", {}, "", 5s);
  ASSERT_TRUE(r.status.isOk());
  EXPECT_EQ(r.http_status, 429);
  Status s = r.toStatus();
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_TRUE(s.retryable());
  EXPECT_EQ(s.retryAfter(), 7s);
  EXPECT_NE(s.message().find("because"), std::string::npos);
  s = client.request("GET", base_ + "/status?code=503", {}, "", 5s).toStatus();
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_EQ(s.retryAfter(), 0ms);
  s = client.request("GET", base_ + "/status?code=400", {}, "", 5s).toStatus();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(s.retryable());
  s = client.request("GET", base_ + "/nowhere", {}, "", 5s).toStatus();
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
}

TEST_F(HttpClientTest, ResponseBodyIsCapped) {
  HttpClient client({});
  auto r = client.request("GET", base_ + "/big", {}, "", 5s);
  EXPECT_EQ(r.status.code(), StatusCode::kPayloadTooLarge) << r.status.toString();
  EXPECT_NE(r.status.message().find("4MiB"), std::string::npos);
  HttpClientOptions o;
  o.max_response_bytes = 8u << 20;
  HttpClient bigger(o);
  r = bigger.request("GET", base_ + "/big", {}, "", 5s);
  ASSERT_TRUE(r.status.isOk());
  EXPECT_EQ(r.body.size(), 5u << 20);
}

TEST_F(HttpClientTest, DecompressesResponses) {
  HttpClient client({});
  auto r = client.request("GET", base_ + "/gzip", {}, "", 5s);
  ASSERT_TRUE(r.status.isOk()) << r.status.toString();
  EXPECT_EQ(r.body, std::string(1000, 'z'));
}

TEST_F(HttpClientTest, TimeoutIsDeadlineExceeded) {
  HttpClient client({});
  auto r = client.request("GET", base_ + "/hold", {}, "", 200ms);
  EXPECT_EQ(r.status.code(), StatusCode::kDeadlineExceeded) << r.status.toString();
  EXPECT_TRUE(r.status.retryable());
  held_.get_future().get()(HttpResponse::text(200, "late"));
}

TEST_F(HttpClientTest, ConnectionRefusedIsUnavailable) {
  uint16_t port;
  {
    boost::asio::io_context ioc;
    boost::asio::ip::tcp::acceptor a(ioc, {boost::asio::ip::address_v4::loopback(), 0});
    port = a.local_endpoint().port();
  }
  HttpClient client({});
  auto r = client.request("GET", "http://127.0.0.1:" + std::to_string(port) + "/", {}, "", 5s);
  EXPECT_EQ(r.status.code(), StatusCode::kUnavailable);
  EXPECT_NE(r.status.message().find("connect"), std::string::npos) << r.status.message();
  EXPECT_EQ(client.request("GET", "ftp://x/", {}, "", 1s).status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(client.request("BREW", base_ + "/", {}, "", 1s).status.code(), StatusCode::kInvalidArgument);
}

class HttpClientIdleTest : public HttpClientTest {
 protected:
  HttpClientIdleTest() { read_header_timeout_ = 100ms; }
};

TEST_F(HttpClientIdleTest, RetriesOnceWhenThePooledConnectionWasClosed) {
  HttpClient client({});
  auto a = client.request("POST", base_ + "/echo", {}, "1", 5s);
  ASSERT_TRUE(a.status.isOk());
  // The server drops the idle connection after its header timeout.
  while (server_->connectionCount() != 0) std::this_thread::sleep_for(10ms);
  auto b = client.request("POST", base_ + "/echo", {}, "2", 5s);
  ASSERT_TRUE(b.status.isOk()) << b.status.toString();
  EXPECT_EQ(b.body, "2");
  EXPECT_NE(headerValue(a.headers, "X-Remote"), headerValue(b.headers, "X-Remote"));
}

TEST(HttpUtil, ParseUrl) {
  Url u;
  ASSERT_TRUE(parseUrl("HTTPS://example.com/a/b?c=d#frag", &u).isOk());
  EXPECT_EQ(u.scheme, "https");
  EXPECT_EQ(u.host, "example.com");
  EXPECT_EQ(u.port, 443);
  EXPECT_EQ(u.target, "/a/b?c=d");
  EXPECT_EQ(u.authority(), "example.com");
  ASSERT_TRUE(parseUrl("http://[::1]:8080", &u).isOk());
  EXPECT_EQ(u.host, "::1");
  EXPECT_EQ(u.port, 8080);
  EXPECT_EQ(u.target, "/");
  EXPECT_EQ(u.authority(), "[::1]:8080");
  ASSERT_TRUE(parseUrl("http://h?x=1", &u).isOk());
  EXPECT_EQ(u.target, "/?x=1");
  EXPECT_EQ(u.port, 80);
  EXPECT_FALSE(parseUrl("example.com/x", &u).isOk());
  EXPECT_FALSE(parseUrl("http://user:pw@h/", &u).isOk());
  EXPECT_FALSE(parseUrl("http:///x", &u).isOk());
  EXPECT_FALSE(parseUrl("http://h:99999/", &u).isOk());
}

TEST(HttpUtil, ParseRetryAfter) {
  // 1994-11-06 08:49:37 UTC
  auto t0 = std::chrono::system_clock::time_point(std::chrono::seconds(784111777));
  EXPECT_EQ(parseRetryAfter("120", t0), 120s);
  EXPECT_EQ(parseRetryAfter(" 0 ", t0), 0s);
  EXPECT_EQ(parseRetryAfter("Sun, 06 Nov 1994 08:50:07 GMT", t0), 30s);
  EXPECT_EQ(parseRetryAfter("Sunday, 06-Nov-94 08:51:37 GMT", t0), 120s);
  EXPECT_EQ(parseRetryAfter("Sun Nov  6 08:49:47 1994", t0), 10s);
  EXPECT_EQ(parseRetryAfter("Sun, 06 Nov 1994 08:00:00 GMT", t0), 0s);  // past
  EXPECT_EQ(parseRetryAfter("soon", t0), 0s);
  EXPECT_EQ(parseRetryAfter("12abc", t0), 0s);
  EXPECT_EQ(parseRetryAfter("", t0), 0s);
  EXPECT_EQ(parseRetryAfter("Sun, 06 Nov 1994 08:50:07 GMT trailing", t0), 0s);
}

}  // namespace
}  // namespace proflow::net
