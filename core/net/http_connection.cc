#include "core/net/http_connection.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <climits>
#include <type_traits>
#include <limits>

#include "core/net/http_syntax.h"
#include "core/net/http_util.h"
#include "core/telemetry/component_telemetry.h"
#include "core/util/ascii.h"

namespace proflow::net::detail {
namespace asio = boost::asio;

namespace {

// Body bytes one read may take: Beast reads at most 64 KiB into the connection's buffer at a time.
constexpr uint64_t kBodyReadBytes = 64 << 10;
// The first buffer of a body with a Content-Length (or the whole body when smaller): the size from
// which glibc, as the daemon tunes it, maps a buffer of its own instead of carving it from the heap.
constexpr size_t kFirstBodyBuffer = 4u << 20;
// A connection's read buffer above this is given back once its request was read.
constexpr size_t kIdleBufferBytes = 16 << 10;

std::string sizeText(uint64_t n) {
  if (n >= (1u << 20) && n % (1u << 20) == 0) return std::to_string(n >> 20) + "MiB";
  return std::to_string(n) + " bytes";
}

int64_t steadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool isHttpProtocolError(const beast::error_code& ec) {
  return ec.category() == http::make_error_code(http::error::bad_target).category() &&
         ec != http::error::end_of_stream && ec != http::error::partial_message;
}

template <class Stream>
Stream makeStream(asio::ip::tcp::socket&& socket, HttpServer::Shared& shared) {
  if constexpr (std::is_same_v<Stream, beast::tcp_stream>) {
    return Stream(std::move(socket));
  } else {
    return Stream(std::move(socket), *shared.opts.tls);
  }
}

}  // namespace

template <class Stream>
Connection<Stream>::Connection(asio::ip::tcp::socket&& socket, std::shared_ptr<HttpServer::Shared> shared)
    : stream_(makeStream<Stream>(std::move(socket), *shared)), shared_(std::move(shared)) {
  beast::error_code ec;
  auto ep = lowest().socket().remote_endpoint(ec);
  if (!ec) {
    remote_ = ep.address().is_v6() ? "[" + ep.address().to_string() + "]:" + std::to_string(ep.port())
                                   : ep.address().to_string() + ":" + std::to_string(ep.port());
  }
}

template <class Stream>
Connection<Stream>::~Connection() {
  std::lock_guard<std::mutex> lock(shared_->mu);
  shared_->connections.erase(this);
}

template <class Stream>
void Connection<Stream>::start() {
  {
    std::lock_guard<std::mutex> lock(shared_->mu);
    shared_->connections.emplace(this, this->weak_from_this());
  }
  waiting_since_ns.store(steadyNowNs(), std::memory_order_relaxed);
  if constexpr (std::is_same_v<Stream, beast::tcp_stream>) {
    asio::dispatch(stream_.get_executor(), [self = this->shared_from_this()] { self->readHeader(); });
  } else {
    // The handshake counts against the header timeout: a client that connects and says nothing is
    // closed like a silent plain-text one.
    asio::dispatch(stream_.get_executor(), [self = this->shared_from_this()] {
      self->lowest().expires_after(self->shared_->opts.read_header_timeout);
      self->stream_.async_handshake(boost::asio::ssl::stream_base::server,
                                    [self](beast::error_code ec) { self->onHandshake(ec); });
    });
  }
}

template <class Stream>
void Connection<Stream>::onHandshake(beast::error_code ec) {
  if (ec) {
    // Plain HTTP sent to a TLS port, an untrusted client certificate, a scanner: not a request.
    shared_->reject(RejectReason::kTlsHandshake);
    if (shared_->logger) shared_->logger->debug("TLS handshake from {} failed: {}", remote_, ec.message());
    return close();
  }
  readHeader();
}

template <class Stream>
void Connection<Stream>::closeIfIdleAsync(bool lingering_too) {
  asio::post(stream_.get_executor(), [self = this->shared_from_this(), lingering_too] {
    if (self->phase_ == Phase::kIdle || (lingering_too && self->phase_ == Phase::kLinger)) self->close();
  });
}

template <class Stream>
void Connection<Stream>::readHeader() {
  if (shared_->stopping) return close();
  phase_ = Phase::kIdle;
  waiting_since_ns.store(steadyNowNs(), std::memory_order_relaxed);
  req_ = HttpRequest{};
  req_.remote_address = remote_;
  route_ = nullptr;
  codec_.reset();
  parser_.emplace();
  parser_->header_limit(static_cast<uint32_t>(std::min<size_t>(shared_->opts.max_header_bytes, UINT32_MAX)));
  // Checked in checkHead(), after routing, so the error can be formatted. Not boost::none: Beast 1.74
  // compares the Content-Length against the optional itself, and "none" compares smaller than any value.
  parser_->body_limit(std::numeric_limits<uint64_t>::max());
  lowest().expires_after(shared_->opts.read_header_timeout);
  http::async_read_header(stream_, buffer_, *parser_,
                          [self = this->shared_from_this()](beast::error_code ec, size_t) { self->onHeader(ec); });
}

template <class Stream>
void Connection<Stream>::onHeader(beast::error_code ec) {
  waiting_since_ns.store(0, std::memory_order_relaxed);
  if (ec) return onHeaderError(ec);
  const auto& h = parser_->get();
  version_ = h.version();
  req_.method = std::string(h.method_string());
  req_.target = std::string(h.target());
  // Routed on the origin form, so an absolute-form target reaches the same handler.
  const std::string origin = originForm(req_.target);
  std::string_view target(origin);
  size_t q = target.find('?');
  req_.path = std::string(target.substr(0, q));
  if (q != std::string_view::npos) req_.query = parseQuery(target.substr(q + 1));
  for (const auto& f : h) req_.headers.emplace(std::string(f.name_string()), std::string(f.value()));
  if (!screenHead()) return;
  const auto& authenticate = shared_->opts.authenticate;
  if (!authenticate) return onAuthenticated(Status::ok());
  // The check may take long (a password hash on a thread of the authenticator's): nothing is read
  // from this connection meanwhile, and its I/O thread serves the others.
  phase_ = Phase::kAuthenticating;
  authenticate(req_, [self = this->shared_from_this()](Status s) {
    asio::post(self->stream_.get_executor(), [self, s = std::move(s)]() mutable { self->onAuthenticated(std::move(s)); });
  });
}

template <class Stream>
void Connection<Stream>::onAuthenticated(Status s) {
  if (phase_ == Phase::kClosed) return;
  const bool no_body = parser_->is_done() && parser_->get().keep_alive();
  const ErrorFormatter* fmt = route_ ? &route_->formatter : known_ ? &known_->formatter : nullptr;
  if (s.code() == StatusCode::kUnauthenticated) {
    return reject(RejectReason::kUnauthenticated, 401, s, no_body, fmt, {}, shared_->opts.www_authenticate);
  }
  if (!s.isOk()) {
    // The check was not made (its queue is full, it is stopping): the client may try again.
    Status unavailable = Status::unavailable(s.message()).withRetryAfter(
        s.retryAfter().count() > 0 ? s.retryAfter() : std::chrono::seconds(1));
    return reject(RejectReason::kAuthUnavailable, 503, unavailable, no_body, fmt);
  }
  if (!checkHead()) return;
  startBody();
}

template <class Stream>
void Connection<Stream>::startBody() {
  phase_ = Phase::kBody;
  if (iequals(req_.header("Expect"), "100-continue") && !parser_->is_done()) {
    continue_ = std::make_shared<http::response<http::empty_body>>(http::status::continue_, version_);
    lowest().expires_after(shared_->opts.write_timeout);
    http::async_write(stream_, *continue_, [self = this->shared_from_this()](beast::error_code e, size_t) {
      if (e) return self->close();
      self->readBody();
    });
    return;
  }
  readBody();
}

template <class Stream>
void Connection<Stream>::onHeaderError(beast::error_code ec) {
  if (ec == http::error::header_limit) {
    return reject(RejectReason::kHeaderTooLarge, 431,
                  Status::tooLarge("request header exceeds " + sizeText(shared_->opts.max_header_bytes)), false);
  }
  if (isHttpProtocolError(ec)) {
    return reject(RejectReason::kBadRequest, 400, Status::invalid("malformed HTTP request: " + ec.message()), false);
  }
  close();  // peer closed, timeout, or stop()
}

// Routing and the checks that need only the header. Rejections here keep the connection only when
// the request has no body: an unread body would be taken for the next request.
template <class Stream>
bool Connection<Stream>::screenHead() {
  const auto& opts = shared_->opts;
  bool no_body = parser_->is_done() && parser_->get().keep_alive();
  // Exact paths first; a path ending in '*' matches what starts with the rest only when no exact
  // route has the request's path.
  const bool exact = std::any_of(shared_->routes.begin(), shared_->routes.end(),
                                 [&](const Route& r) { return r.path == req_.path; });
  auto matches = [&](const Route& r) {
    if (exact || r.path.empty() || r.path.back() != '*') return r.path == req_.path;
    return std::string_view(req_.path).substr(0, r.path.size() - 1) == std::string_view(r.path).substr(0, r.path.size() - 1);
  };
  allow_.clear();
  known_ = nullptr;
  for (const auto& r : shared_->routes) {
    if (!matches(r)) continue;
    if (r.method == req_.method) route_ = &r;
    if (!known_) known_ = &r;
    allow_ += (allow_.empty() ? "" : ", ") + r.method;
  }
  // The screen and the credentials come before routing answers and the size and encoding checks: a
  // client without credentials learns neither which paths and methods exist nor the limits.
  const ErrorFormatter* fmt = route_ ? &route_->formatter : known_ ? &known_->formatter : nullptr;
  if (opts.screen) {
    if (Status s = opts.screen(req_); !s.isOk()) {
      reject(RejectReason::kForbidden, 403, s, no_body, fmt);
      return false;
    }
  }
  return true;
}

template <class Stream>
bool Connection<Stream>::checkHead() {
  const auto& opts = shared_->opts;
  bool no_body = parser_->is_done() && parser_->get().keep_alive();
  const std::string& allow = allow_;
  if (!route_ && allow.empty()) {
    reject(RejectReason::kNotFound, 404, Status(StatusCode::kNotFound, "no handler for path " + req_.path), no_body);
    return false;
  }
  if (!route_) {
    reject(RejectReason::kMethodNotAllowed, 405,
           Status(StatusCode::kUnimplemented, "method " + req_.method + " not allowed for " + req_.path + "; allowed: " + allow),
           no_body, &known_->formatter, allow);
    return false;
  }
  auto cl = parser_->content_length();
  if (cl && *cl > opts.max_wire_body_bytes) {
    reject(RejectReason::kTooLarge, 413,
           Status::tooLarge("request body of " + std::to_string(*cl) + " bytes exceeds limit of " +
                            sizeText(opts.max_wire_body_bytes)),
           false, &route_->formatter);
    return false;
  }
  std::string_view enc = req_.header("Content-Encoding");
  codec_ = compression::codecFromName(enc);
  if (!codec_) {
    reject(RejectReason::kUnsupportedEncoding, 415,
           Status::invalid("unsupported Content-Encoding \"" + std::string(enc) + "\"; supported: gzip, deflate, zstd, lz4"),
           no_body, &route_->formatter);
    return false;
  }
  parser_->body_limit(static_cast<uint64_t>(opts.max_wire_body_bytes));  // chunked bodies
  // A declared body that would not fit beside what requests hold now is refused at the door; its
  // memory is claimed as it arrives (reserveBodyRoom).
  if (!admitBody(cl ? static_cast<size_t>(*cl) : 0)) return false;
  body_deadline_ = opts.read_body_timeout.count() > 0 ? std::chrono::steady_clock::now() + opts.read_body_timeout
                                                      : std::chrono::steady_clock::time_point::max();
  return true;
}

template <class Stream>
bool Connection<Stream>::admitBody(size_t declared) {
  const auto& budget = shared_->opts.in_flight;
  if (!budget) return true;
  Status s = budget->admit(declared, &req_.in_flight, "request body");
  if (s.isOk()) return true;
  refuseClaim(s);
  return false;
}

template <class Stream>
void Connection<Stream>::refuseClaim(const Status& s) {
  const bool busy = s.retryable();
  reject(busy ? RejectReason::kInFlightLimit : RejectReason::kTooLarge, busy ? 429 : 413, s, false,
         &route_->formatter);
}

// The body grows by half its size at a time (at least by what the next read may add, at most to the
// declared length), so it holds at most about 1.5x what arrived and is copied O(1) times per byte.
// A declared body starts at kFirstBodyBuffer (or its length if smaller): a buffer of that size is
// mapped for it alone (allocator_tuning.h) and given back to the system when freed, where a crowd of
// bodies growing in small steps would fragment the heap, and only the pages written become resident.
// The string is rebuilt at the new size rather than reserve()d: libstdc++ doubles a reserve() below
// twice the old capacity, which would hold more than is claimed.
template <class Stream>
bool Connection<Stream>::reserveBodyRoom() {
  std::string& body = parser_->get().body();
  const size_t need = body.size() + buffer_.size() + kBodyReadBytes;
  if (body.capacity() >= need) return true;
  const auto declared = parser_->content_length();
  const size_t most = declared ? static_cast<size_t>(*declared) : shared_->opts.max_wire_body_bytes;
  const size_t step = std::max(body.capacity() + body.capacity() / 2, declared ? kFirstBodyBuffer : 0);
  const size_t grow_to = std::min(most, std::max(need, step));
  if (grow_to <= body.capacity()) return true;  // the parser takes no more than `most`
  if (req_.in_flight) {
    if (Status s = req_.in_flight->resize(grow_to, "request body", InFlightLease::Growth::kBody); !s.isOk()) {
      refuseClaim(s);
      return false;
    }
  }
  std::string bigger;
  bigger.reserve(grow_to);
  bigger.append(body);
  body.swap(bigger);  // the parser's reader keeps a reference to `body` itself
  return true;
}

template <class Stream>
void Connection<Stream>::readBody() {
  if (parser_->is_done()) return onBodyDone();
  if (!reserveBodyRoom()) return;
  // A read takes only the buffer's spare room, which after the header is a few hundred bytes: a
  // 64 KiB body cost dozens of reads, each a recvmsg, a timer update and a strand hop. Room for the
  // rest of a declared body, up to kBodyReadBytes, makes it a few; a chunked body gets the idle size.
  const auto remaining = parser_->content_length_remaining();
  const size_t want =
      remaining ? static_cast<size_t>(std::min<uint64_t>(*remaining, kBodyReadBytes)) : kIdleBufferBytes;
  if (buffer_.capacity() - buffer_.size() < want) buffer_.reserve(buffer_.size() + want);
  // An idle timeout, renewed on every read, and a deadline for the whole body, whichever is first.
  auto deadline = body_deadline_;
  if (shared_->opts.read_timeout.count() > 0)
    deadline = std::min(deadline, std::chrono::steady_clock::now() + shared_->opts.read_timeout);
  if (deadline == std::chrono::steady_clock::time_point::max()) {
    lowest().expires_never();
  } else {
    lowest().expires_at(deadline);
  }
  http::async_read_some(stream_, buffer_, *parser_,
                        [self = this->shared_from_this()](beast::error_code ec, size_t) { self->onBodyRead(ec); });
}

template <class Stream>
void Connection<Stream>::onBodyRead(beast::error_code ec) {
  if (ec == http::error::body_limit) {
    return reject(RejectReason::kTooLarge, 413,
                  Status::tooLarge("request body exceeds limit of " + sizeText(shared_->opts.max_wire_body_bytes)),
                  false, &route_->formatter);
  }
  if (ec && isHttpProtocolError(ec)) {
    return reject(RejectReason::kBadRequest, 400, Status::invalid("malformed HTTP body: " + ec.message()), false,
                  &route_->formatter);
  }
  if (ec == beast::error::timeout) {
    shared_->reject(RejectReason::kBodyTimeout);
    if (shared_->logger)
      shared_->logger->debug("closing {}: request body not received in time (read_timeout / read_body_timeout)",
                             remote_);
  }
  if (ec) return close();
  readBody();
}

template <class Stream>
void Connection<Stream>::onBodyDone() {
  lowest().expires_never();
  // Idle keep-alive connections stay small: thousands may be open.
  if (buffer_.size() == 0 && buffer_.capacity() > kIdleBufferBytes) buffer_.shrink_to_fit();
  auto& msg = parser_->get();
  keep_alive_ = msg.keep_alive();
  std::string wire = std::move(msg.body());
  req_.wire_bytes = wire.size();
  if (shared_->telemetry) shared_->telemetry->bytesIn(wire.size());
  const auto& opts = shared_->opts;
  if (*codec_ != compression::Codec::kNone && !wire.empty()) {
    compression::Limits limits = opts.decompression;
    limits.max_output_bytes = opts.max_request_body_bytes;
    auto inflate = [codec = *codec_, limits, wire = std::move(wire)](std::string& body) {
      return compression::decompress(codec, wire, body, limits);
    };
    if (!opts.decode_executor) {
      std::string body;
      Status s = inflate(body);
      return onBodyDecoded(std::move(s), std::move(body));
    }
    // The connection reads nothing until it answers, so nothing else touches it meanwhile.
    asio::post(*opts.decode_executor, [self = this->shared_from_this(), inflate = std::move(inflate)]() mutable {
      std::string body;
      Status s = inflate(body);
      asio::post(self->stream_.get_executor(), [self, s = std::move(s), body = std::move(body)]() mutable {
        self->onBodyDecoded(std::move(s), std::move(body));
      });
    });
    return;
  }
  if (wire.size() > opts.max_request_body_bytes) {
    return reject(RejectReason::kTooLarge, 413,
                  Status::tooLarge("request body of " + std::to_string(wire.size()) + " bytes exceeds limit of " +
                                   sizeText(opts.max_request_body_bytes)),
                  keep_alive_, &route_->formatter);
  }
  req_.body = std::move(wire);
  dispatch();
}

template <class Stream>
void Connection<Stream>::onBodyDecoded(Status s, std::string body) {
  if (phase_ == Phase::kClosed) return;
  if (!s.isOk()) {
    bool too_large = s.code() == StatusCode::kPayloadTooLarge;
    return reject(too_large ? RejectReason::kTooLarge : RejectReason::kBadEncoding, too_large ? 413 : 400, s,
                  keep_alive_, &route_->formatter);
  }
  // The claim moves from the wire size to the decompressed size.
  if (req_.in_flight) {
    if (Status claim = req_.in_flight->resize(body.size(), "decompressed request body",
                                                          InFlightLease::Growth::kNoWait); !claim.isOk()) {
      bool busy = claim.retryable();
      return reject(busy ? RejectReason::kInFlightLimit : RejectReason::kTooLarge, busy ? 429 : 413, claim,
                    keep_alive_, &route_->formatter);
    }
  }
  req_.body = std::move(body);
  dispatch();
}

template <class Stream>
void Connection<Stream>::dispatch() {
  phase_ = Phase::kHandling;
  auto state = std::make_shared<Responder::State>();
  state->deliver = [self = this->shared_from_this()](HttpResponse r) {
    asio::post(self->stream_.get_executor(), [self, r = std::move(r)]() mutable { self->onResponse(std::move(r)); });
  };
  const Route& route = *route_;
  try {
    // Moved out so that what the handler does not keep (the body, the in-flight claim) is freed
    // when it returns, not when this connection reads its next request.
    HttpRequest req = std::move(req_);
    route.handler(std::move(req), Responder(std::move(state)));
  } catch (const std::exception& e) {
    // The dropped Responder answers 500.
    if (shared_->logger) shared_->logger->error("HTTP handler for {} threw: {}", route.path, e.what());
  }
}

template <class Stream>
void Connection<Stream>::onResponse(HttpResponse r) {
  if (phase_ != Phase::kHandling) return;
  write(std::move(r), keep_alive_);
}

template <class Stream>
void Connection<Stream>::reject(RejectReason reason, int http_status, const Status& status, bool keep_alive,
                        const ErrorFormatter* fmt, std::string allow, std::string www_authenticate) {
  shared_->reject(reason);
  req_.in_flight.reset();  // nothing of this request is kept past the answer
  const ErrorFormatter& f = fmt && *fmt ? *fmt : shared_->default_formatter;
  HttpResponse r = f ? f(status, req_) : defaultErrorFormatter(status, req_);
  r.status = http_status;
  if (!allow.empty()) r.headers.emplace_back("Allow", std::move(allow));
  if (!www_authenticate.empty()) r.headers.emplace_back("WWW-Authenticate", std::move(www_authenticate));
  bool has_retry_after = std::any_of(r.headers.begin(), r.headers.end(),
                                     [](const auto& h) { return iequals(h.first, "Retry-After"); });
  if (status.retryable() && !has_retry_after) r.headers.emplace_back("Retry-After", retryAfterSeconds(status));
  write(std::move(r), keep_alive);
}

template <class Stream>
void Connection<Stream>::write(HttpResponse r, bool keep_alive) {
  phase_ = Phase::kWriting;
  keep_alive = keep_alive && !shared_->stopping;
  res_ = std::make_shared<http::response<http::string_body>>();
  res_->version(version_);
  res_->result(static_cast<unsigned>(r.status));
  if (!r.content_type.empty()) res_->set(http::field::content_type, r.content_type);
  for (auto& [k, v] : r.headers) res_->insert(k, v);
  res_->body() = std::move(r.body);
  res_held_ = std::move(r.held_until_written);
  res_->keep_alive(keep_alive);
  res_->prepare_payload();
  lowest().expires_after(shared_->opts.write_timeout);
  http::async_write(stream_, *res_, [self = this->shared_from_this(), keep_alive](beast::error_code ec, size_t) {
    self->onWrite(ec, keep_alive);
  });
}

template <class Stream>
void Connection<Stream>::onWrite(beast::error_code ec, bool keep_alive) {
  res_.reset();
  res_held_.reset();
  if (ec) return close();
  if (keep_alive && !shared_->stopping) return readHeader();
  lingerClose();
}

// Closing a socket with unread input makes the kernel send RST, which can destroy the response we
// just wrote before the client reads it: clients that send their whole body before reading (most
// do) would see a broken pipe instead of a 429 or 413. Half-close, then read and discard what the
// client still sends, within the linger bounds of HttpServerOptions, before closing.
template <class Stream>
void Connection<Stream>::lingerClose() {
  phase_ = Phase::kLinger;
  beast::error_code ec;
  lowest().socket().shutdown(asio::ip::tcp::socket::shutdown_send, ec);
  if (ec) return close();
  linger_deadline_ = std::chrono::steady_clock::now() + shared_->opts.linger_timeout;
  waiting_since_ns.store(steadyNowNs(), std::memory_order_relaxed);  // first to go at max_connections
  drain();
}

template <class Stream>
void Connection<Stream>::drain() {
  constexpr size_t kDrainChunk = 16384;
  const auto& opts = shared_->opts;
  if (phase_ != Phase::kLinger || drained_ >= std::max(opts.linger_bytes, opts.max_wire_body_bytes)) return close();
  if (!drain_) drain_ = std::make_unique<char[]>(kDrainChunk);
  lowest().expires_at(std::min(linger_deadline_, std::chrono::steady_clock::now() + opts.linger_idle_timeout));
  // Raw bytes below TLS as well: they are discarded, only their count matters.
  lowest().async_read_some(asio::buffer(drain_.get(), kDrainChunk),
                           [self = this->shared_from_this()](beast::error_code e, size_t n) {
                             self->drained_ += n;
                             if (e) return self->close();
                             self->drain();
                           });
}

template <class Stream>
void Connection<Stream>::close() {
  phase_ = Phase::kClosed;
  waiting_since_ns.store(0, std::memory_order_relaxed);
  beast::error_code ec;
  lowest().socket().shutdown(asio::ip::tcp::socket::shutdown_both, ec);
  lowest().close();
}

template class Connection<beast::tcp_stream>;
template class Connection<beast::ssl_stream<beast::tcp_stream>>;

}  // namespace proflow::net::detail
