// HttpServerOptions::authenticate is asynchronous: a connection waiting for its check holds no I/O
// thread, the check's answer resumes it (401 / 503 / on to routing and the body), and the order of
// answers is screen, credentials, then 404/405.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "core/net/http_server.h"
#include "core/telemetry/component_telemetry.h"
#include "tests/core/net/http_test_util.h"

namespace proflow::net {
namespace {

using testing::IoThreads;
using testing::post;
using testing::RawConn;

// Checks that wait until the test answers them, as a password hash queued on another thread would.
class PendingChecks {
 public:
  void add(AuthDone done) {
    std::lock_guard lock(mu_);
    pending_.push_back(std::move(done));
    cv_.notify_all();
  }
  void waitFor(size_t n) {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return pending_.size() >= n; });
  }
  size_t count() {
    std::lock_guard lock(mu_);
    return pending_.size();
  }
  // Answers the oldest waiting check.
  void answer(Status s) {
    AuthDone done;
    {
      std::lock_guard lock(mu_);
      done = std::move(pending_.front());
      pending_.erase(pending_.begin());
    }
    done(std::move(s));
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<AuthDone> pending_;
};

class HttpServerAuthTest : public ::testing::Test {
 protected:
  // One I/O thread for both servers: were a check to wait on it, the other server could not answer.
  IoThreads io_{1};
  telemetry::MetricsRegistry registry_;
  telemetry::ComponentTelemetry tel_{registry_, ComponentKind::kReceiver, "gated"};
  PendingChecks checks_;
  std::unique_ptr<HttpServer> gated_, open_;

  void SetUp() override {
    HttpServerOptions gated;
    gated.www_authenticate = "Basic realm=\"test\"";
    gated.authenticate = [this](const HttpRequest&, AuthDone done) { checks_.add(std::move(done)); };
    gated_ = std::make_unique<HttpServer>(io_.ioc, gated, nullptr, &tel_);
    open_ = std::make_unique<HttpServer>(io_.ioc, HttpServerOptions{}, nullptr);
    for (auto* server : {gated_.get(), open_.get()}) {
      server->route("POST", "/echo", [](HttpRequest&& r, Responder respond) {
        respond(HttpResponse::text(200, "echo:" + r.body));
      });
      ASSERT_TRUE(server->start().isOk());
    }
  }
  void TearDown() override {
    gated_->stop();
    open_->stop();
    io_.join();
  }
  double rejected(const char* reason) {
    return registry_.value("proflow_receiver_http_rejected_requests_total", {{"receiver", "gated"}, {"reason", reason}});
  }
};

TEST_F(HttpServerAuthTest, AWaitingCheckHoldsNoIoThreadAndItsAnswerResumesTheRequest) {
  RawConn waiting(gated_->port());
  waiting.send(post("/echo", "held"));
  checks_.waitFor(1);
  // The only I/O thread is free: another server (and another connection of the same one) answers.
  RawConn other(open_->port());
  other.send(post("/echo", "other"));
  auto answered = other.read();
  ASSERT_TRUE(answered);
  EXPECT_EQ(answered->status, 200);
  EXPECT_EQ(answered->body, "echo:other");
  RawConn second(gated_->port());
  second.send(post("/echo", "second"));
  checks_.waitFor(2);
  EXPECT_EQ(checks_.count(), 2u) << "the first check is still waiting";

  checks_.answer(Status::ok());  // the first: its body is read and handled
  auto first = waiting.read();
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, 200);
  EXPECT_EQ(first->body, "echo:held");
  checks_.answer(Status(StatusCode::kUnauthenticated, "invalid user or password"));
  auto refused = second.read();
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 401);
  EXPECT_EQ(refused->headers["WWW-Authenticate"], "Basic realm=\"test\"");
  EXPECT_EQ(rejected("unauthenticated"), 1);
}

// A check that could not be made (its queue is full) is not a wrong password: 503 + Retry-After,
// counted apart, whatever status the authenticator chose to say so.
TEST_F(HttpServerAuthTest, ACheckThatCouldNotBeMadeIs503WithRetryAfter) {
  for (Status s : {Status::unavailable("too many password checks in progress"),
                   Status::exhausted("busy").withRetryAfter(std::chrono::seconds(3))}) {
    RawConn c(gated_->port());
    c.send(post("/echo", "x"));
    checks_.waitFor(1);
    const auto retry = s.retryAfter().count() > 0 ? "3" : "1";
    checks_.answer(s);
    auto r = c.read();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 503);
    EXPECT_EQ(r->headers["Retry-After"], retry);
    EXPECT_TRUE(r->headers["WWW-Authenticate"].empty()) << "not a credentials problem";
  }
  EXPECT_EQ(rejected("auth_unavailable"), 2);
  EXPECT_EQ(rejected("unauthenticated"), 0);
}

// Credentials before routing: a refused client learns neither paths nor methods; an accepted one
// gets the 404 / 405 it would get without an authenticator.
TEST_F(HttpServerAuthTest, CredentialsAreCheckedBeforeRoutingAnswers) {
  for (const char* request : {"GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"}) {
    RawConn c(gated_->port());
    c.send(request);
    checks_.waitFor(1);
    checks_.answer(Status(StatusCode::kUnauthenticated, "missing Authorization header"));
    auto refused = c.read();
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->status, 401) << request;
    ASSERT_TRUE(refused->keep_alive) << "no body: the connection stays";
    c.send(request);
    checks_.waitFor(1);
    checks_.answer(Status::ok());
    auto routed = c.read();
    ASSERT_TRUE(routed);
    EXPECT_EQ(routed->status, std::string_view(request).find("nowhere") != std::string_view::npos ? 404 : 405);
  }
}

}  // namespace
}  // namespace proflow::net
