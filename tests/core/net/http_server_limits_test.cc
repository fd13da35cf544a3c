// The server's bounds against crowds: the in-flight byte budget (refused before the body is read),
// shedding of connections that wait for a header when the connection cap is reached, and the
// whole-body timeout.
#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <thread>

#include "core/compression/compression.h"
#include "core/net/http_server.h"
#include "core/net/open_files_limit.h"
#include "tests/core/net/http_test_util.h"

namespace proflow::net {
namespace {

using testing::IoThreads;
using testing::post;
using testing::RawConn;

class HttpServerLimitsTest : public ::testing::Test {
 protected:
  void start(HttpServerOptions o) {
    server_ = std::make_unique<HttpServer>(io_.ioc, o, nullptr);
    server_->route("POST", "/ok", [](HttpRequest&& r, Responder respond) {
      respond(HttpResponse::text(200, std::to_string(r.body.size())));
    });
    // Holds its request (and so its in-flight claim) until the test answers.
    server_->route("POST", "/hold", [this](HttpRequest&& r, Responder respond) {
      held_requests_.push_back(std::move(r));
      held_.set_value(respond);
    });
    ASSERT_TRUE(server_->start().isOk());
  }
  void TearDown() override {
    if (server_) server_->stop();
    io_.join();
    server_.reset();
  }

  IoThreads io_;
  std::unique_ptr<HttpServer> server_;
  std::promise<Responder> held_;
  std::vector<HttpRequest> held_requests_;
};

TEST_F(HttpServerLimitsTest, BodiesBeyondTheInFlightBudgetAre429BeforeTheyAreRead) {
  HttpServerOptions o;
  o.in_flight = std::make_shared<InFlightBudget>(1u << 20);
  start(o);
  RawConn first(server_->port());
  first.send(post("/hold", std::string(700 << 10, 'a')));
  Responder busy = held_.get_future().get();
  EXPECT_EQ(o.in_flight->used(), 700u << 10);

  // Only the header is sent: the answer must not wait for the body.
  RawConn second(server_->port());
  second.send("POST /ok HTTP/1.1\r\nHost: t\r\nContent-Length: " + std::to_string(700 << 10) + "\r\n\r\n");
  auto r = second.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 429);
  EXPECT_EQ(r->headers["Retry-After"], "1");
  EXPECT_NE(r->body.find("max_in_flight_bytes"), std::string::npos) << r->body;
  EXPECT_EQ(server_->rejected(RejectReason::kInFlightLimit), 1u);

  // Answered and dropped: the budget is free again.
  busy(HttpResponse::text(200, ""));
  ASSERT_TRUE(first.read());
  held_requests_.clear();
  RawConn third(server_->port());
  third.send(post("/ok", std::string(700 << 10, 'b')));
  r = third.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(o.in_flight->used(), 0u);
}

TEST_F(HttpServerLimitsTest, DecompressedSizeCountsAgainstTheBudget) {
  HttpServerOptions o;
  o.in_flight = std::make_shared<InFlightBudget>(1u << 20);
  start(o);
  RawConn first(server_->port());
  first.send(post("/hold", std::string(400 << 10, 'a')));  // under the bodies' half
  Responder busy = held_.get_future().get();

  // 700 KiB of zeros gzip to a few hundred bytes: admitted on its wire size, refused once inflated
  // (on the I/O thread, without waiting for the budget).
  std::string gz;
  ASSERT_TRUE(compression::compress(compression::Codec::kGzip, std::string(700 << 10, '\0'), gz).isOk());
  RawConn second(server_->port());
  second.send(post("/ok", gz, "Content-Encoding: gzip\r\n"));
  auto r = second.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 429);
  EXPECT_NE(r->body.find("decompressed request body"), std::string::npos) << r->body;
  busy(HttpResponse::text(200, ""));
  ASSERT_TRUE(first.read());
}

TEST_F(HttpServerLimitsTest, ABodyLargerThanTheWholeBudgetIs413) {
  HttpServerOptions o;
  o.in_flight = std::make_shared<InFlightBudget>(1000);
  start(o);
  RawConn c(server_->port());
  c.send("POST /ok HTTP/1.1\r\nHost: t\r\nContent-Length: 5000\r\n\r\n");
  auto r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_NE(r->body.find("max_in_flight_bytes"), std::string::npos) << r->body;
}

TEST_F(HttpServerLimitsTest, ChunkedBodiesAreClaimedAsTheyArrive) {
  HttpServerOptions o;
  o.in_flight = std::make_shared<InFlightBudget>(1000);
  start(o);
  RawConn c(server_->port());
  std::string chunk(600, 'x');
  c.send("POST /ok HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n" + chunk + "\r\n258\r\n" + chunk +
         "\r\n0\r\n\r\n");
  auto r = c.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_EQ(o.in_flight->used(), 0u);
}

// Uploads that declare large bodies and then stall hold only what they sent: a body's memory is
// claimed as it arrives, so they do not lock every other request out of the budget.
TEST_F(HttpServerLimitsTest, StalledUploadsHoldOnlyWhatTheySent) {
  HttpServerOptions o;
  o.in_flight = std::make_shared<InFlightBudget>(64u << 20);
  start(o);
  std::vector<std::unique_ptr<RawConn>> stalled;
  for (int i = 0; i < 4; ++i) {  // 4 x 16 MiB declared: the whole half of the budget bodies may take
    stalled.push_back(std::make_unique<RawConn>(server_->port()));
    stalled.back()->send("POST /ok HTTP/1.1\r\nHost: t\r\nContent-Length: " + std::to_string(16u << 20) +
                         "\r\n\r\nx");
  }
  // Each holds its first buffer (4 MiB, of which only what arrived is written), not its 16 MiB.
  while (o.in_flight->used() < 4 * (4u << 20)) std::this_thread::yield();
  EXPECT_EQ(o.in_flight->used(), 4 * (4u << 20));
  RawConn normal(server_->port());
  normal.send(post("/ok", std::string(1u << 20, 'n')));
  auto r = normal.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(server_->rejected(RejectReason::kInFlightLimit), 0u);
}

// A body admitted at the door (its declared size fitted beside what was held then) is refused when
// its growing claim no longer fits, and the client, still sending, reads the 429.
TEST_F(HttpServerLimitsTest, ABodyIsRefusedWhenItsGrowingClaimDoesNotFit) {
  HttpServerOptions o;
  o.in_flight = std::make_shared<InFlightBudget>(16u << 20);
  start(o);
  RawConn first(server_->port());
  first.send("POST /ok HTTP/1.1\r\nHost: t\r\nContent-Length: " + std::to_string(7u << 20) + "\r\n\r\n" +
             std::string(512u << 10, 'a'));
  while (o.in_flight->used() < (512u << 10)) std::this_thread::yield();
  // The first holds its first 4 MiB buffer; 4 MiB more fit in the bodies' half (8 MiB).
  RawConn second(server_->port());
  second.send(post("/hold", std::string(4u << 20, 'b')));
  Responder held = held_.get_future().get();
  first.send(std::string((7u << 20) - (512u << 10), 'a'));  // its claim cannot grow beside the held 4 MiB
  auto r = first.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 429);
  EXPECT_EQ(r->headers["Retry-After"], "1");
  held(HttpResponse::text(200, ""));
  r = second.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
}

// A client that writes its whole body before reading (as Python's http.client, Go, curl and Node
// do) must still find the 429 sent before that body was read: the server reads and discards the
// rest instead of closing into the client's upload, which would reset the connection.
TEST_F(HttpServerLimitsTest, ARefusedClientThatSendsItsWholeBodyStillReadsTheAnswer) {
  HttpServerOptions o;
  o.in_flight = std::make_shared<InFlightBudget>(16u << 20);
  start(o);
  RawConn first(server_->port());
  first.send(post("/hold", std::string(7u << 20, 'a')));
  Responder busy = held_.get_future().get();

  RawConn second(server_->port());
  second.send(post("/ok", std::string(8u << 20, 'b')));  // throws on a reset before the last byte
  auto r = second.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 429);
  EXPECT_EQ(r->headers["Retry-After"], "1");
  EXPECT_FALSE(r->keep_alive);
  EXPECT_TRUE(second.closed());
  busy(HttpResponse::text(200, ""));
  EXPECT_TRUE(first.read());
}

TEST_F(HttpServerLimitsTest, LingeringAfterARefusalIsBoundedInBytesAndSilence) {
  HttpServerOptions o;
  o.max_wire_body_bytes = 64u << 10;
  o.linger_bytes = 256u << 10;
  o.linger_idle_timeout = std::chrono::milliseconds(200);
  start(o);
  // Silent after the 413: closed after the idle bound.
  RawConn silent(server_->port());
  silent.send("POST /ok HTTP/1.1\r\nHost: t\r\nContent-Length: 100000000\r\n\r\n");
  auto r = silent.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_TRUE(silent.closed());

  // Sending on and on: closed once the byte bound is read, so the upload fails.
  RawConn endless(server_->port());
  endless.send("POST /ok HTTP/1.1\r\nHost: t\r\nContent-Length: 100000000\r\n\r\n");
  bool reset = false;
  const std::string chunk(64u << 10, 'x');
  for (int i = 0; i < 1600 && !reset; ++i) {  // 100 MiB at most
    try {
      endless.send(chunk);
    } catch (const std::exception&) {
      reset = true;
    }
  }
  EXPECT_TRUE(reset);
}

// At the connection cap a connection lingering after its answer makes room like an idle one.
TEST_F(HttpServerLimitsTest, ALingeringConnectionIsShedForANewOne) {
  HttpServerOptions o;
  o.max_connections = 1;
  o.max_wire_body_bytes = 1000;
  start(o);
  RawConn refused(server_->port());
  refused.send("POST /ok HTTP/1.1\r\nHost: t\r\nContent-Length: 5000\r\n\r\n");
  auto r = refused.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);  // and lingers: its body never comes

  // The answer can reach the client a moment before the server has finished writing it and begun
  // to linger: a connection in that moment finds the only one busy and is refused. Not for long.
  std::optional<testing::RawResponse> answer;
  for (int attempt = 0; attempt < 50 && !answer; ++attempt) {
    try {
      RawConn next(server_->port());
      next.send(post("/ok", "hello"));
      answer = next.read();
    } catch (const std::exception&) {
    }
    if (!answer) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->status, 200);
  EXPECT_EQ(server_->rejected(RejectReason::kIdleShed), 1u);
  EXPECT_TRUE(refused.closed());
}

// 1,100 clients that open a connection and dribble a header never finished fill a 1,024 cap; a
// real client still gets its answer, because the longest-waiting connections make room.
TEST_F(HttpServerLimitsTest, SlowHeaderClientsAreShedForRealOnes) {
  ASSERT_TRUE(raiseOpenFilesLimit().ok);
  HttpServerOptions o;
  o.max_connections = 1024;
  start(o);
  namespace asio = boost::asio;
  asio::io_context clients;  // one for all: 1,100 sockets, not 1,100 reactors
  std::vector<asio::ip::tcp::socket> slow;
  const std::string partial = "POST /ok HTTP/1.1\r\nHost: t\r\n";  // and nothing more
  for (int i = 0; i < 1100; ++i) {
    slow.emplace_back(clients);
    slow.back().connect({asio::ip::address_v4::loopback(), server_->port()});
    asio::write(slow.back(), asio::buffer(partial));
  }
  RawConn real(server_->port());
  real.send(post("/ok", "hello"));
  auto r = real.read();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "5");
  EXPECT_GE(server_->rejected(RejectReason::kIdleShed), 77u);
  EXPECT_EQ(server_->rejected(RejectReason::kTooManyConnections), 0u);
  char c;
  boost::system::error_code ec;
  slow.front().read_some(asio::buffer(&c, 1), ec);  // the oldest went first
  EXPECT_TRUE(ec == asio::error::eof || ec == asio::error::connection_reset) << ec.message();
}

TEST_F(HttpServerLimitsTest, ABodyTricklingPastReadBodyTimeoutIsClosed) {
  HttpServerOptions o;
  o.read_timeout = std::chrono::seconds(30);  // each byte arrives well within the idle timeout
  o.read_body_timeout = std::chrono::milliseconds(300);
  start(o);
  RawConn c(server_->port());
  c.send("POST /ok HTTP/1.1\r\nHost: t\r\nContent-Length: 1000\r\n\r\n");
  bool closed = false;
  for (int i = 0; i < 200 && !closed; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    try {
      c.send("x");
    } catch (const std::exception&) {
      closed = true;
    }
  }
  EXPECT_TRUE(closed);
  EXPECT_EQ(server_->rejected(RejectReason::kBodyTimeout), 1u);
}

}  // namespace
}  // namespace proflow::net
