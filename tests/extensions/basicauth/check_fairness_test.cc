// Basic auth's password checks are queued fairly between clients: a flood of wrong passwords from
// many connections of one address fills only that address's share, so a user from elsewhere who
// has not been verified yet still gets checked (not 503), and a verified user is answered at once.
#include <crypt.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <future>
#include <thread>
#include <vector>

#include "core/auth/server_auth.h"
#include "core/net/http_server.h"
#include "extensions/basicauth/base64.h"
#include "extensions/basicauth/basic_auth.h"

namespace proflow::extensions::basicauth {
namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;

class NoHost : public Host {
 public:
  void reportFatalError(const ComponentId&, const Status&) override {}
};

std::string bcrypt(const std::string& password, unsigned long cost) {
  char setting[CRYPT_GENSALT_OUTPUT_SIZE];
  EXPECT_NE(crypt_gensalt_rn("$2y$", cost, nullptr, 0, setting, sizeof setting), nullptr);
  struct crypt_data data {};
  return crypt_r(password.c_str(), setting, &data);
}

// A keep-alive HTTP/1.1 connection from `source` (any 127.0.0.0/8 address is this machine's).
class Client {
 public:
  Client(const char* source, uint16_t port) : sock_(ioc_) {
    sock_.open(asio::ip::tcp::v4());
    sock_.bind({asio::ip::make_address(source), 0});
    sock_.connect({asio::ip::address_v4::loopback(), port});
  }
  // Status of a POST with these Basic credentials; 0 when the connection failed.
  int post(const std::string& user, const std::string& password) {
    http::request<http::string_body> req{http::verb::post, "/x", 11};
    req.set(http::field::host, "127.0.0.1");
    req.set(http::field::authorization, "Basic " + base64Encode(user + ":" + password));
    req.body() = "x";
    req.prepare_payload();
    boost::beast::error_code ec;
    http::write(sock_, req, ec);
    if (ec) return 0;
    http::response<http::string_body> res;
    http::read(sock_, buf_, res, ec);
    return ec ? 0 : static_cast<int>(res.result_int());
  }

 private:
  asio::io_context ioc_;
  asio::ip::tcp::socket sock_;
  boost::beast::flat_buffer buf_;
};

TEST(BasicAuthFairness, AWrongPasswordFloodFromManyConnectionsLeavesOtherUsersIn) {
  // Cost 10: each wrong password keeps the check thread busy long enough that the flood below
  // always has checks waiting.
  HtpasswdConfig cfg;
  cfg.inline_entries = "alice:" + bcrypt("wonderland", 10) + "\nbob:" + bcrypt("builder", 10) + "\ncarol:" +
                       bcrypt("singer", 4) + "\n";
  BasicAuthServer auth(CreateSettings{{"basicauth", ""}, ComponentKind::kExtension, spdlog::default_logger(),
                                      nullptr, nullptr},
                       cfg);
  NoHost host;
  ASSERT_TRUE(auth.start(host).isOk());

  asio::io_context io;
  auto work = asio::make_work_guard(io);
  std::thread io_thread([&] { io.run(); });
  net::HttpServerOptions opts;
  auth::protectHttpServer(&auth, &opts);
  net::HttpServer server(io, opts, nullptr);
  server.route("POST", "/x", [](net::HttpRequest&&, net::Responder respond) {
    respond(net::HttpResponse::text(200, "ok"));
  });
  ASSERT_TRUE(server.start().isOk());
  const auto port = static_cast<uint16_t>(server.port());

  // Carol is verified before the flood.
  ASSERT_EQ(Client("127.0.0.1", port).post("carol", "singer"), 200);

  std::atomic<bool> stop{false};
  std::atomic<int> unavailable{0}, unauthorized{0};
  std::vector<std::thread> flood;
  for (int i = 0; i < 24; ++i) {
    flood.emplace_back([&, i] {
      Client c("127.0.0.1", port);
      while (!stop) {
        const int status = c.post("alice", "guess-" + std::to_string(i));
        if (status == 503) ++unavailable;
        else if (status == 401) ++unauthorized;
        else break;  // connection closed
      }
    });
  }
  // The flood has filled what it may of the queue once some of its checks are turned away.
  while (unavailable == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));

  EXPECT_EQ(Client("127.0.0.1", port).post("carol", "singer"), 200) << "a verified user waits for nobody";
  EXPECT_EQ(Client("127.0.0.2", port).post("bob", "builder"), 200) << "a new user from another address is checked";
  EXPECT_EQ(Client("127.0.0.2", port).post("bob", "wrong"), 401) << "and a wrong password from there is refused, not 503";

  stop = true;
  for (auto& t : flood) t.join();
  EXPECT_GT(unauthorized.load(), 0);
  server.stop();
  work.reset();
  io_thread.join();
  auth.shutdown({});
}

}  // namespace
}  // namespace proflow::extensions::basicauth
