// Internals of HttpServer: the state connections share with the server, and one connection's
// read -> route -> decompress -> handle -> write loop. Not for use outside core/net.
#pragma once

#include <array>
#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "core/net/http_server.h"
#include "core/telemetry/metrics.h"

namespace proflow::net {

namespace detail {
// What the server needs from a connection of either kind (plain or TLS).
class ConnectionBase {
 public:
  virtual ~ConnectionBase() = default;
  // Posts to the connection's strand: close if waiting for a request, or also if lingering after
  // its last answer (`lingering_too`: shedding; stop() lets lingering connections finish).
  virtual void closeIfIdleAsync(bool lingering_too) = 0;
  // steady_clock nanoseconds since the connection began waiting for a request header (keep-alive
  // idle time included) or began its lingering close; 0 while it is busy with a request. Read by
  // the acceptor to shed the connection that has waited longest.
  std::atomic<int64_t> waiting_since_ns{0};
};
}  // namespace detail

struct HttpServer::Shared : std::enable_shared_from_this<HttpServer::Shared> {
  struct Route {
    std::string method;
    std::string path;
    HttpHandler handler;
    ErrorFormatter formatter;
  };

  Shared(boost::asio::io_context& io, HttpServerOptions o, std::shared_ptr<spdlog::logger> l,
         telemetry::ComponentTelemetry* t);

  void reject(RejectReason r);
  void accept();
  void onAccepted(boost::asio::ip::tcp::socket socket);
  // At max_connections: closes the connection waiting longest for a request header. False when
  // every connection is busy with a request.
  bool shedLongestWaiting();
  void stopOnStrand();

  boost::asio::io_context& ioc;
  const HttpServerOptions opts;
  std::shared_ptr<spdlog::logger> logger;
  telemetry::ComponentTelemetry* telemetry;
  std::array<std::atomic<uint64_t>, kRejectReasonCount> rejected{};
  std::array<telemetry::Counter*, kRejectReasonCount> reject_counters{};
  std::vector<Route> routes;  // fixed once start() ran
  ErrorFormatter default_formatter = defaultErrorFormatter;
  boost::asio::ip::tcp::acceptor acceptor;  // on its own strand
  std::atomic<bool> started{false};
  std::atomic<bool> stopping{false};
  std::atomic<uint16_t> port{0};

  std::mutex mu;
  std::unordered_map<detail::ConnectionBase*, std::weak_ptr<detail::ConnectionBase>> connections;
};

struct Responder::State {
  std::function<void(HttpResponse)> deliver;
  std::atomic<bool> done{false};
  ~State();
};

namespace detail {

namespace beast = boost::beast;
namespace http = boost::beast::http;

// A request body in a std::string, as Beast's string_body, except that the parser does not reserve
// the declared Content-Length up front: the connection grows the string as bytes arrive, claiming
// each growth from the in-flight budget first. A client that declares 64 MiB and sends a byte holds
// a few KiB, not 64 MiB of budget (or of address space).
struct GrowingStringBody {
  using value_type = std::string;

  class reader {
   public:
    template <bool isRequest, class Fields>
    reader(http::header<isRequest, Fields>&, value_type& body) : body_(body) {}
    void init(const boost::optional<std::uint64_t>&, beast::error_code& ec) { ec = {}; }
    template <class ConstBufferSequence>
    std::size_t put(const ConstBufferSequence& buffers, beast::error_code& ec) {
      std::size_t n = 0;
      for (auto b : beast::buffers_range_ref(buffers)) {
        body_.append(static_cast<const char*>(b.data()), b.size());
        n += b.size();
      }
      ec = {};
      return n;
    }
    void finish(beast::error_code& ec) { ec = {}; }

   private:
    value_type& body_;
  };
};

// One connection's loop over a plain TCP stream or a TLS stream (instantiated for both in the .cc).
template <class Stream>
class Connection : public ConnectionBase, public std::enable_shared_from_this<Connection<Stream>> {
 public:
  Connection(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<HttpServer::Shared> shared);
  ~Connection() override;

  void start();
  void closeIfIdleAsync(bool lingering_too) override;

 private:
  enum class Phase { kIdle, kAuthenticating, kBody, kHandling, kWriting, kLinger, kClosed };
  using Route = HttpServer::Shared::Route;

  void readHeader();
  void onHeader(beast::error_code ec);
  void onHeaderError(beast::error_code ec);
  // Routing, the screen, then the authentication check (asynchronous): false when answered.
  bool screenHead();
  // Back on the connection strand with the authentication check's answer.
  void onAuthenticated(Status status);
  // The checks after authentication: 404/405, sizes, encoding, the budget's door. False when answered.
  bool checkHead();
  // Past every check of the header: 100 Continue if asked, then the body.
  void startBody();
  void readBody();
  void onBodyRead(beast::error_code ec);
  // The door check of the in-flight budget on the declared size (no claim yet); on refusal answers
  // 429 (413 when the body alone is over the budget).
  bool admitBody(size_t declared);
  // Before a read: room in the body for what the read may add, claimed from the budget first.
  bool reserveBodyRoom();
  // 429 / 413 for a refused claim, closing (the body stays unread).
  void refuseClaim(const Status& s);
  void onBodyDone();
  // Back on the connection strand once the body is inflated (inline or on the decode executor).
  void onBodyDecoded(Status status, std::string body);
  void dispatch();
  void onResponse(HttpResponse r);
  void reject(RejectReason reason, int http_status, const Status& status, bool keep_alive,
              const ErrorFormatter* fmt = nullptr, std::string allow = {}, std::string www_authenticate = {});
  void write(HttpResponse r, bool keep_alive);
  void onWrite(beast::error_code ec, bool keep_alive);
  void onHandshake(beast::error_code ec);
  beast::tcp_stream& lowest() { return beast::get_lowest_layer(stream_); }
  void lingerClose();
  void drain();
  void close();

  Stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<GrowingStringBody>> parser_;
  std::shared_ptr<HttpServer::Shared> shared_;
  const Route* route_ = nullptr;
  // What routing found for the request's path, for answers given before the route is needed.
  std::string allow_;
  const Route* known_ = nullptr;
  std::optional<compression::Codec> codec_;
  HttpRequest req_;
  unsigned version_ = 11;
  bool keep_alive_ = true;
  Phase phase_ = Phase::kIdle;
  std::shared_ptr<http::response<http::string_body>> res_;
  std::shared_ptr<const void> res_held_;  // HttpResponse::held_until_written of the response in res_
  std::shared_ptr<http::response<http::empty_body>> continue_;
  std::string remote_;
  std::chrono::steady_clock::time_point body_deadline_{};
  // Only lingering connections need it: idle ones stay small (thousands may be open).
  std::unique_ptr<char[]> drain_;
  size_t drained_ = 0;
  std::chrono::steady_clock::time_point linger_deadline_{};
};

using PlainConnection = Connection<beast::tcp_stream>;
using TlsConnection = Connection<beast::ssl_stream<beast::tcp_stream>>;

}  // namespace detail
}  // namespace proflow::net
