// The HTTP/1.1 server behind every HTTP receiver and the telemetry endpoint (Boost.Beast).
//
// The server does the protocol work every receiver would otherwise repeat: routing (404/405),
// size limits enforced while reading (Content-Length over the wire limit is refused before the body
// is read), Content-Encoding decompression with the size and ratio caps (413/415/400), timeouts,
// keep-alive and Expect: 100-continue. Handlers receive a complete, decompressed request and answer
// through a Responder, from any thread, so they can decode on a worker pool.
//
//   net::HttpServer server(ioc, opts, logger, &telemetry);
//   server.route("POST", "/v1development/profiles",
//                [](net::HttpRequest&& req, net::Responder respond) { respond(net::HttpResponse::text(200, "ok")); },
//                otlpErrorFormatter);
//   if (Status s = server.start(); !s.isOk()) return s;
#pragma once

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/compression/compression.h"
#include "core/net/http_types.h"
#include "core/net/in_flight_budget.h"
#include "core/util/status.h"

namespace boost::asio::ssl {
class context;
}
namespace spdlog {
class logger;
}
namespace proflow::telemetry {
class ComponentTelemetry;
}

namespace proflow::net {

// Answers one request. Copyable; the first call sends the response (posted to the connection's
// strand, so any thread may call it) and later calls are ignored. If every copy is destroyed
// without a call the client gets a 500, so a lost request never hangs a connection.
class Responder {
 public:
  struct State;
  explicit Responder(std::shared_ptr<State> state) : state_(std::move(state)) {}
  void operator()(HttpResponse response) const;

 private:
  std::shared_ptr<State> state_;
};

using HttpHandler = std::function<void(HttpRequest&&, Responder)>;

// How an authentication check answers (HttpServerOptions::authenticate).
using AuthDone = std::function<void(Status)>;

// Renders an error the server answers itself (or a handler chooses to). The server overwrites the
// returned status with the HTTP code it decided (404, 405, 413, 415, 400, 431); the formatter
// chooses body and content type, e.g. a google.rpc.Status for OTLP.
using ErrorFormatter = std::function<HttpResponse(const Status&, const HttpRequest&)>;

// text/plain body with the status message; HTTP status from httpStatusFor().
HttpResponse defaultErrorFormatter(const Status& status, const HttpRequest& request);

struct HttpServerOptions {
  std::string endpoint = "127.0.0.1:0";        // host:port, port 0 = any free port
  size_t max_request_body_bytes = 64u << 20;  // after decompression
  size_t max_wire_body_bytes = 64u << 20;     // as received (compressed)
  size_t max_header_bytes = 64u << 10;
  // Ratio cap for compressed bodies; max_output_bytes is replaced by max_request_body_bytes.
  compression::Limits decompression;
  std::chrono::milliseconds read_header_timeout{std::chrono::seconds(60)};  // includes keep-alive idle time
  std::chrono::milliseconds read_timeout{std::chrono::seconds(60)};  // max silence while reading a body; 0 = none
  std::chrono::milliseconds read_body_timeout{0};  // whole body, from the end of the header; 0 = none
  std::chrono::milliseconds write_timeout{std::chrono::seconds(30)};
  // Lingering close. A connection the server closes after answering (a refusal that leaves the body
  // unread, Connection: close, stop()) is half-closed, then what the client still sends is read and
  // discarded before the socket closes: closing with unread input makes the kernel send a reset that
  // destroys the answer before a client that writes its whole body before reading (Python's
  // http.client, Go's net/http, curl, Node) has read it. Bounded: at most
  // max(linger_bytes, max_wire_body_bytes) bytes, linger_timeout in all, linger_idle_timeout of
  // silence; a lingering connection is closed first when max_connections is reached.
  size_t linger_bytes = 64u << 20;
  std::chrono::milliseconds linger_timeout{std::chrono::seconds(30)};
  std::chrono::milliseconds linger_idle_timeout{std::chrono::seconds(5)};
  // At the cap, a new connection closes the connection that has waited longest for (the rest of) a
  // request header instead of being refused: idle keep-alive and slow-header clients make room
  // for clients that are sending. Refused only when every connection is busy with a request.
  size_t max_connections = 1024;
  // Bytes of admitted requests (a body's buffer as it arrives, then the decompressed size) the
  // server may hold at once; beyond it 429 + Retry-After, before the body is read when its declared
  // Content-Length does not fit beside what is held. Null = unbounded. The lease travels with
  // HttpRequest::in_flight so handlers can extend it to what decoding will allocate.
  std::shared_ptr<InFlightBudget> in_flight;
  // Where compressed bodies are inflated (e.g. Runtime::workers()): a 64 MiB gzip body takes tens of
  // milliseconds, which on the I/O thread would stall every other connection. Unset: inline.
  std::optional<boost::asio::any_io_executor> decode_executor;
  // TLS (makeServerTlsContext in tls_server.h); null = plain text.
  std::shared_ptr<boost::asio::ssl::context> tls;
  // Called once a request's headers are read, before 404/405 and the body (the request has no body
  // yet). The check answers through `done`, once, from any thread (possibly before it returns): the
  // connection waits for it without holding its I/O thread, which serves other connections
  // meanwhile (a password hash takes tens of milliseconds). UNAUTHENTICATED answers 401 with
  // `WWW-Authenticate: www_authenticate` (through the route's error formatter, when the path has
  // one), counted as reason "unauthenticated"; any other non-OK status (the check could not be run
  // now: its queue is full, it is stopping) answers 503 with `Retry-After`, counted as
  // "auth_unavailable". Unset: no check.
  std::function<void(const HttpRequest& head, AuthDone done)> authenticate;
  std::string www_authenticate;
  // Called before `authenticate`, on the headers: a non-OK status answers 403, counted as reason
  // "forbidden" (browserRequestScreen in request_origin.h: cross-site writes, rebound host names).
  std::function<Status(const HttpRequest& head)> screen;
};

// Why the server refused a request itself (label "reason" of http_rejected_requests_total).
enum class RejectReason {
  kBadRequest,         // malformed request line/headers/chunking: 400, connection closed
  kNotFound,           // 404
  kMethodNotAllowed,   // 405
  kTooLarge,           // 413: wire or decompressed size, or inflate ratio
  kHeaderTooLarge,     // 431
  kUnsupportedEncoding,  // 415
  kBadEncoding,        // 400: corrupt or truncated compressed body
  kTooManyConnections,  // connection closed on accept
  kTlsHandshake,        // TLS handshake failed (plain text to a TLS port, untrusted client certificate)
  kUnauthenticated,     // 401: HttpServerOptions::authenticate refused the request
  kInFlightLimit,       // 429 + Retry-After: the in-flight byte budget is spent
  kIdleShed,            // an idle or slow-header connection closed to make room for a new one
  kBodyTimeout,         // body not received within read_timeout (idle) or read_body_timeout (total)
  kForbidden,           // 403: HttpServerOptions::screen refused the request
  kAuthUnavailable,     // 503 + Retry-After: HttpServerOptions::authenticate could not check now
};
inline constexpr int kRejectReasonCount = 15;
const char* rejectReasonName(RejectReason r);  // "bad_request", "not_found", ...

class HttpServer {
 public:
  // `telemetry` (optional, must outlive the server) receives body wire bytes (bytesIn) and
  // <prefix>http_rejected_requests_total{reason=...}.
  HttpServer(boost::asio::io_context& ioc, HttpServerOptions options, std::shared_ptr<spdlog::logger> logger,
             telemetry::ComponentTelemetry* telemetry = nullptr);
  ~HttpServer();  // stop()s
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Before start(). Exact path match; register the same path with several methods to allow them.
  // A path ending in '*' ("/telemetry/proxy/*", "/*") matches every path that starts with what
  // precedes the '*', when no exact route has the request's path.
  // An empty formatter means defaultErrorFormatter.
  void route(std::string method, std::string path, HttpHandler handler, ErrorFormatter error_formatter = {});
  // Formats 404s and malformed requests (no route known).
  void setDefaultErrorFormatter(ErrorFormatter f);

  // Binds and starts accepting on the io_context. Errors name the address.
  Status start();
  // Actual bound port (useful with port 0); 0 before start().
  uint16_t port() const;
  // Stops accepting, closes connections waiting for a request, lets in-flight requests finish
  // (their connections close after the response). Idempotent, callable from any thread.
  void stop();

  size_t connectionCount() const;
  uint64_t rejected(RejectReason r) const;

  struct Shared;  // state connections keep alive after the server object is gone

 private:
  std::shared_ptr<Shared> shared_;
};

}  // namespace proflow::net
