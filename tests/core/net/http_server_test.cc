#include "core/net/http_server.h"

#include <gtest/gtest.h>

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include <future>
#include <thread>

#include "core/telemetry/component_telemetry.h"
#include "tests/core/net/http_test_util.h"

namespace proflow::net {
namespace {

using testing::IoThreads;
using testing::post;
using testing::RawConn;

class HttpServerTest : public ::testing::Test {
 protected:
  void start(HttpServerOptions o = {}) {
    tel_ = std::make_unique<telemetry::ComponentTelemetry>(registry_, ComponentKind::kReceiver, "test");
    server_ = std::make_unique<HttpServer>(io_.ioc, o, nullptr, tel_.get());
    // Echo: body, plus what the server parsed, in headers.
    server_->route("POST", "/echo", [](HttpRequest&& r, Responder respond) {
      HttpResponse res{200, "application/octet-stream", r.body, {}};
      res.headers.emplace_back("X-Wire-Bytes", std::to_string(r.wire_bytes));
      res.headers.emplace_back("X-Name", std::string(r.queryValue("name")));
      res.headers.emplace_back("X-Custom", std::string(r.header("x-CUSTOM")));
      res.headers.emplace_back("X-Remote", r.remote_address);
      respond(std::move(res));
    });
    server_->route("PUT", "/echo", [](HttpRequest&&, Responder respond) { respond(HttpResponse::text(204, "")); });
    server_->route(
        "POST", "/json",
        [](HttpRequest&&, Responder respond) { respond(HttpResponse::text(200, "ok")); },
        [](const Status& s, const HttpRequest& req) {
          return HttpResponse{0, "application/json", "{\"message\":\"" + s.message() + "\",\"ct\":\"" +
                                                          std::string(req.header("content-type")) + "\"}", {}};
        });
    server_->route("POST", "/async", [this](HttpRequest&& r, Responder respond) {
      // Answer from another thread, later, as a receiver decoding on a worker pool does.
      workers_.emplace_back([respond, body = std::move(r.body)] { respond(HttpResponse::text(200, "async:" + body)); });
    });
    server_->route("GET", "/files/*", [](HttpRequest&& r, Responder respond) { respond(HttpResponse::text(200, r.path)); });
    server_->route("POST", "/drop", [](HttpRequest&&, Responder) {});
    server_->route("POST", "/hold", [this](HttpRequest&&, Responder respond) { held_.set_value(respond); });
    Status s = server_->start();
    ASSERT_TRUE(s.isOk()) << s.toString();
    ASSERT_NE(server_->port(), 0);
  }
  void TearDown() override {
    if (server_) server_->stop();
    for (auto& t : workers_) t.join();
    io_.join();
    server_.reset();
  }
  double rejected(const char* reason) {
    return registry_.value("proflow_receiver_http_rejected_requests_total", {{"receiver", "test"}, {"reason", reason}});
  }

  IoThreads io_;
  telemetry::MetricsRegistry registry_;
  std::unique_ptr<telemetry::ComponentTelemetry> tel_;
  std::unique_ptr<HttpServer> server_;
  std::vector<std::thread> workers_;
  std::promise<Responder> held_;
};

TEST_F(HttpServerTest, EchoesBodyQueryHeadersAndKeepsAlive) {
  start();
  RawConn c(server_->port());
  c.send(post("/echo?name=my%20app&x=1", "hello", "X-Custom: v1\r\n"));
  auto r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "hello");
  EXPECT_EQ(r->headers["X-Name"], "my app");
  EXPECT_EQ(r->headers["X-Custom"], "v1");
  EXPECT_EQ(r->headers["X-Wire-Bytes"], "5");
  EXPECT_EQ(r->headers["X-Remote"].substr(0, 10), "127.0.0.1:");
  EXPECT_TRUE(r->keep_alive);
  // Same connection, two pipelined requests.
  c.send(post("/echo", "one") + post("/echo", "two"));
  EXPECT_EQ(c.read()->body, "one");
  EXPECT_EQ(c.read()->body, "two");
  EXPECT_EQ(registry_.value("proflow_receiver_bytes_in_total", {{"receiver", "test"}}), 11);
}

TEST_F(HttpServerTest, ChunkedBodyIsAssembled) {
  start();
  RawConn c(server_->port());
  c.send("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n");
  auto r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "abcde");
}

TEST_F(HttpServerTest, UnknownPathIs404AndWrongMethodIs405WithAllow) {
  start();
  RawConn c(server_->port());
  c.send("GET /nope HTTP/1.1\r\nHost: t\r\n\r\n");
  auto r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_NE(r->body.find("/nope"), std::string::npos);
  EXPECT_TRUE(r->keep_alive);  // no body was sent, so the connection stays usable
  c.send(post("/echo", "next"));
  EXPECT_EQ(c.read()->body, "next");
  c.send(post("/nope", "with body"));
  r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_FALSE(r->keep_alive);  // the unread body would be taken for the next request
  RawConn c2(server_->port());
  c2.send("GET /echo HTTP/1.1\r\nHost: t\r\n\r\n");
  r = c2.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 405);
  EXPECT_EQ(r->headers["Allow"], "POST, PUT");
  EXPECT_EQ(rejected("not_found"), 2);
  EXPECT_EQ(rejected("method_not_allowed"), 1);
  EXPECT_EQ(server_->rejected(RejectReason::kMethodNotAllowed), 1u);
}

TEST_F(HttpServerTest, PrefixRouteMatchesEveryPathUnderIt) {
  start();
  RawConn c(server_->port());
  c.send("GET /files/ab/cd/debuginfo HTTP/1.1\r\nHost: t\r\n\r\n");
  auto r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "/files/ab/cd/debuginfo");
  c.send("GET /filesystem HTTP/1.1\r\nHost: t\r\n\r\n");
  EXPECT_EQ(c.read()->status, 404);
  c.send("PUT /files/x HTTP/1.1\r\nHost: t\r\n\r\n");
  r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 405);
  EXPECT_EQ(r->headers["Allow"], "GET");
}

TEST_F(HttpServerTest, ContentLengthOverWireLimitRejectedBeforeBody) {
  HttpServerOptions o;
  o.max_wire_body_bytes = 1000;
  start(o);
  RawConn c(server_->port());
  // Only the header is sent: the answer must come without the server waiting for the body.
  c.send("POST /json HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n");
  auto r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(r->headers["Content-Type"], "application/json");  // the route's formatter
  EXPECT_NE(r->body.find("exceeds limit of 1000 bytes"), std::string::npos) << r->body;
  EXPECT_NE(r->body.find("\"ct\":\"application/json\""), std::string::npos) << r->body;
  EXPECT_FALSE(r->keep_alive);
  EXPECT_EQ(rejected("too_large"), 1);
}

TEST_F(HttpServerTest, ChunkedBodyOverWireLimitIs413) {
  HttpServerOptions o;
  o.max_wire_body_bytes = 10;
  start(o);
  RawConn c(server_->port());
  c.send("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n12345678\r\n0\r\n\r\n");
  auto r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
}

TEST_F(HttpServerTest, DecompressesContentEncodings) {
  start();
  std::string plain(100000, 'p');
  for (auto codec : {compression::Codec::kGzip, compression::Codec::kZlib, compression::Codec::kZstd,
                     compression::Codec::kLz4}) {
    std::string z;
    ASSERT_TRUE(compression::compress(codec, plain, z).isOk());
    RawConn c(server_->port());
    c.send(post("/echo", z, std::string("Content-Encoding: ") + compression::codecName(codec) + "\r\n"));
    auto r = c.read();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200) << r->body;
    EXPECT_EQ(r->body, plain) << compression::codecName(codec);
    EXPECT_EQ(r->headers["X-Wire-Bytes"], std::to_string(z.size()));
  }
}

// With a decode executor, inflating a body happens there: while it waits, the I/O thread keeps
// serving other connections; afterwards the body (or the limit error) arrives as without one.
TEST_F(HttpServerTest, DecodeExecutorInflatesOffTheIoThread) {
  boost::asio::thread_pool decoder(1);
  std::promise<void> release;
  boost::asio::post(decoder, [f = release.get_future().share()] { f.wait(); });  // occupy the decoder
  HttpServerOptions o;
  o.decode_executor = decoder.get_executor();
  o.max_request_body_bytes = 1u << 20;
  start(o);
  std::string plain(200000, 'q'), z, bomb;
  ASSERT_TRUE(compression::compress(compression::Codec::kGzip, plain, z).isOk());
  ASSERT_TRUE(compression::compress(compression::Codec::kGzip, std::string(4u << 20, '\0'), bomb).isOk());
  RawConn compressed(server_->port()), too_big(server_->port()), identity(server_->port());
  compressed.send(post("/echo", z, "Content-Encoding: gzip\r\n"));
  too_big.send(post("/echo", bomb, "Content-Encoding: gzip\r\n"));
  identity.send(post("/echo", "served meanwhile"));
  auto r = identity.read();  // answered while both compressed bodies wait for the decoder
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "served meanwhile");
  release.set_value();
  r = compressed.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, plain);
  r = too_big.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_NE(r->body.find("decompressed size exceeds limit of 1MiB"), std::string::npos) << r->body;
  EXPECT_TRUE(r->keep_alive);
  decoder.join();
}

TEST_F(HttpServerTest, DecompressedSizeAndRatioLimitsAre413) {
  HttpServerOptions o;
  o.max_request_body_bytes = 1u << 20;
  start(o);
  std::string bomb;
  ASSERT_TRUE(compression::compress(compression::Codec::kGzip, std::string(8u << 20, '\0'), bomb).isOk());
  RawConn c(server_->port());
  c.send(post("/echo", bomb, "Content-Encoding: gzip\r\n"));
  auto r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_NE(r->body.find("decompressed size exceeds limit of 1MiB"), std::string::npos) << r->body;
  // Identity bodies obey the decompressed limit too.
  c.send(post("/echo", std::string((1u << 20) + 1, 'x')));
  r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(rejected("too_large"), 2);
}

TEST_F(HttpServerTest, InflateRatioLimitIs413) {
  HttpServerOptions o;
  o.decompression.ratio_floor_bytes = 1000;
  start(o);
  std::string z;
  ASSERT_TRUE(compression::compress(compression::Codec::kZstd, std::string(1u << 20, 'a'), z).isOk());
  RawConn c(server_->port());
  c.send(post("/echo", z, "Content-Encoding: zstd\r\n"));
  auto r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_NE(r->body.find("inflate ratio exceeds 100:1"), std::string::npos) << r->body;
}

TEST_F(HttpServerTest, UnknownEncodingIs415AndCorruptIs400KeepingTheConnection) {
  start();
  RawConn c(server_->port());
  c.send(post("/echo", "zzz", "Content-Encoding: gzip\r\n"));
  auto r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(r->body.find("gzip"), std::string::npos) << r->body;
  EXPECT_TRUE(r->keep_alive);  // the body was read whole, so the connection stays usable
  c.send(post("/echo", "fine"));
  EXPECT_EQ(c.read()->body, "fine");
  c.send(post("/echo", "abc", "Content-Encoding: br\r\n"));
  r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 415);
  EXPECT_NE(r->body.find("\"br\""), std::string::npos);
  EXPECT_EQ(rejected("bad_encoding"), 1);
  EXPECT_EQ(rejected("unsupported_encoding"), 1);
}

TEST_F(HttpServerTest, MalformedRequestIs400AndCloses) {
  start();
  for (const char* junk : {"GARBAGE\r\n\r\n", "POST /echo HTTP/9.9\r\n\r\n", "\x16\x03\x01\x02\x00\x01\x00\r\n\r\n",
                           "POST /echo HTTP/1.1\r\nContent-Length: abc\r\n\r\n"}) {
    RawConn c(server_->port());
    c.send(junk);
    auto r = c.read();
    ASSERT_TRUE(r) << junk;
    EXPECT_EQ(r->status, 400) << junk;
    EXPECT_TRUE(c.closed()) << junk;
  }
  EXPECT_EQ(rejected("bad_request"), 4);
  // Still serving.
  RawConn c(server_->port());
  c.send(post("/echo", "alive"));
  EXPECT_EQ(c.read()->body, "alive");
}

TEST_F(HttpServerTest, OversizedHeaderIs431) {
  HttpServerOptions o;
  o.max_header_bytes = 1024;
  start(o);
  RawConn c(server_->port());
  c.send(post("/echo", "x", "X-Big: " + std::string(4000, 'b') + "\r\n"));
  auto r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 431);
}

TEST_F(HttpServerTest, Expect100Continue) {
  start();
  RawConn c(server_->port());
  c.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n");
  auto interim = c.read();
  ASSERT_TRUE(interim);
  EXPECT_EQ(interim->status, 100);
  c.send("body");
  auto r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "body");
}

TEST_F(HttpServerTest, AsyncResponderAndDroppedResponder) {
  start();
  RawConn c(server_->port());
  c.send(post("/async", "x"));
  auto r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "async:x");
  c.send(post("/drop", "x"));
  r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 500);
  c.send(post("/echo", "after"));
  EXPECT_EQ(c.read()->body, "after");
}

TEST_F(HttpServerTest, StopClosesIdleAndFinishesInFlight) {
  start();
  RawConn idle(server_->port());
  RawConn busy(server_->port());
  busy.send(post("/hold", "x"));
  Responder respond = held_.get_future().get();  // the request is in the handler now
  server_->stop();
  EXPECT_TRUE(idle.closed());
  respond(HttpResponse::text(200, "late"));
  auto r = busy.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, "late");
  EXPECT_FALSE(r->keep_alive);
  EXPECT_TRUE(busy.closed());
  EXPECT_THROW(RawConn late(server_->port()), boost::system::system_error);
}

TEST_F(HttpServerTest, HeaderTimeoutClosesSilentConnections) {
  HttpServerOptions o;
  o.read_header_timeout = std::chrono::milliseconds(100);
  start(o);
  RawConn c(server_->port());
  c.send("POST /echo HTTP/1.1\r\n");  // never finishes the header
  EXPECT_TRUE(c.closed());
}

TEST_F(HttpServerTest, MaxConnectionsClosesExtraConnectionsWhenAllAreBusy) {
  HttpServerOptions o;
  o.max_connections = 1;
  start(o);
  RawConn first(server_->port());
  first.send(post("/hold", "1"));
  Responder busy = held_.get_future().get();  // the first connection is handling a request
  RawConn second(server_->port());
  EXPECT_TRUE(second.closed());
  EXPECT_EQ(server_->rejected(RejectReason::kTooManyConnections), 1u);
  busy(HttpResponse::text(200, "done"));
  EXPECT_TRUE(first.read());
}

TEST_F(HttpServerTest, StartFailsOnBusyPortNamingTheAddress) {
  start();
  HttpServerOptions o;
  o.endpoint = "127.0.0.1:" + std::to_string(server_->port());
  HttpServer other(io_.ioc, o, nullptr);
  Status s = other.start();
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_NE(s.message().find(o.endpoint), std::string::npos) << s.message();
  HttpServerOptions bad;
  bad.endpoint = "nonsense";
  EXPECT_EQ(HttpServer(io_.ioc, bad, nullptr).start().code(), StatusCode::kInvalidArgument);
}

TEST(HttpServerRoutes, PrefixRoutesMatchOnlyWhenNoExactRouteDoes) {
  IoThreads io;
  HttpServer server(io.ioc, HttpServerOptions{}, nullptr);
  auto answer = [](std::string tag) {
    return [tag](HttpRequest&& r, Responder respond) { respond(HttpResponse::text(200, tag + ":" + r.path)); };
  };
  server.route("POST", "/*", answer("any"));
  server.route("POST", "/telemetry/proxy/*", answer("telemetry"));
  server.route("GET", "/info", answer("info"));
  ASSERT_TRUE(server.start().isOk());
  RawConn c(server.port());
  c.send(post("/telemetry/proxy/api/v2/apmtelemetry", "x"));
  EXPECT_EQ(c.read()->body, "telemetry:/telemetry/proxy/api/v2/apmtelemetry");  // the later, longer prefix
  c.send(post("/v0.4/traces", "x"));
  EXPECT_EQ(c.read()->body, "any:/v0.4/traces");
  c.send("GET /info HTTP/1.1\r\nHost: t\r\n\r\n");
  EXPECT_EQ(c.read()->body, "info:/info");
  // An exact route owns its path: other methods get 405, not the prefix route.
  c.send(post("/info", "x"));
  auto r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 405);
  RawConn c2(server.port());
  c2.send("GET /v0.4/traces HTTP/1.1\r\nHost: t\r\n\r\n");
  r = c2.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 405);  // the prefix routes take POST only
  server.stop();
  io.join();
}

}  // namespace
}  // namespace proflow::net
