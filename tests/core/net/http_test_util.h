// Test helpers: an io_context on two threads, and a raw socket client that can send anything.
#pragma once

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace proflow::net::testing {

class IoThreads {
 public:
  explicit IoThreads(int n = 2) : work_(boost::asio::make_work_guard(ioc)) {
    for (int i = 0; i < n; ++i) threads_.emplace_back([this] { ioc.run(); });
  }
  ~IoThreads() { join(); }
  void join() {
    work_.reset();
    ioc.stop();
    for (auto& t : threads_) t.join();
    threads_.clear();
  }
  boost::asio::io_context ioc;

 private:
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::vector<std::thread> threads_;
};

struct RawResponse {
  int status = 0;
  boost::beast::http::fields headers;
  std::string body;
  bool keep_alive = false;
};

// A blocking client socket speaking raw bytes, reading responses with Beast's parser.
class RawConn {
 public:
  explicit RawConn(uint16_t port) : sock_(ioc_) {
    sock_.connect({boost::asio::ip::address_v4::loopback(), port});
  }
  void send(std::string_view s) { boost::asio::write(sock_, boost::asio::buffer(s.data(), s.size())); }
  // Next response, or nullopt when the server closed the connection first.
  std::optional<RawResponse> read() {
    namespace http = boost::beast::http;
    http::response_parser<http::string_body> p;
    p.body_limit(1u << 30);
    boost::beast::error_code ec;
    http::read(sock_, buf_, p, ec);
    if (ec) return std::nullopt;
    RawResponse r;
    r.status = static_cast<int>(p.get().result_int());
    r.headers = p.get().base();
    r.body = p.get().body();
    r.keep_alive = p.get().keep_alive();
    return r;
  }
  // True when the server closed (EOF or reset) before sending anything more.
  bool closed() {
    char c;
    boost::system::error_code ec;
    if (buf_.size() > 0) return false;
    sock_.read_some(boost::asio::buffer(&c, 1), ec);
    return ec == boost::asio::error::eof || ec == boost::asio::error::connection_reset;
  }

 private:
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::socket sock_;
  boost::beast::flat_buffer buf_;
};

inline std::string post(const std::string& path, const std::string& body, const std::string& extra_headers = "") {
  return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" +
         extra_headers + "\r\n" + body;
}

}  // namespace proflow::net::testing
