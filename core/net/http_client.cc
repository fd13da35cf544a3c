#include "core/net/http_client.h"

#include <openssl/ssl.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "core/compression/compression.h"
#include "core/net/http_util.h"

namespace proflow::net {
namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

std::string sizeText(size_t n) {
  if (n >= (1u << 20) && n % (1u << 20) == 0) return std::to_string(n >> 20) + "MiB";
  return std::to_string(n) + " bytes";
}

// One connection with its own io_context: requests are synchronous for the caller, but run as
// async operations so that Beast's stream timeouts bound every step.
struct Conn {
  asio::io_context ioc;
  std::optional<beast::tcp_stream> tcp;
  std::optional<beast::ssl_stream<beast::tcp_stream>> tls;
  beast::flat_buffer buf;

  beast::tcp_stream& lowest() { return tls ? beast::get_lowest_layer(*tls) : *tcp; }
  // Runs the started operation(s) to completion; the stream's expiry ends them on time.
  void run() {
    ioc.restart();
    ioc.run();
  }
};

bool isStaleConnectionError(const beast::error_code& ec) {
  return ec == http::error::end_of_stream || ec == asio::error::eof || ec == asio::error::connection_reset ||
         ec == asio::error::broken_pipe || ec == ssl::error::stream_truncated;
}

Status transportError(const Url& url, const char* step, const beast::error_code& ec, std::chrono::milliseconds timeout) {
  std::string where = url.scheme + "://" + url.authority() + url.target;
  if (ec == beast::error::timeout || ec == asio::error::timed_out) {
    return {StatusCode::kDeadlineExceeded, where + ": " + step + " timed out (timeout " + std::to_string(timeout.count()) + "ms)"};
  }
  return Status::unavailable(where + ": " + step + ": " + ec.message());
}

}  // namespace

struct HttpClient::Impl {
  HttpClientOptions opts;
  std::optional<ssl::context> ssl_ctx;
  Status tls_status;
  std::mutex mu;
  std::map<std::string, std::vector<std::unique_ptr<Conn>>> idle;

  explicit Impl(HttpClientOptions o) : opts(std::move(o)) { initTls(); }

  void initTls() {
    ssl_ctx.emplace(ssl::context::tls_client);
    SSL_CTX_set_min_proto_version(ssl_ctx->native_handle(), TLS1_2_VERSION);
    beast::error_code ec;
    const auto& t = opts.tls;
    if (!t.ca_file.empty()) {
      ssl_ctx->load_verify_file(t.ca_file, ec);
      if (ec) tls_status = Status::invalid("TLS: cannot load ca_file \"" + t.ca_file + "\": " + ec.message());
    } else {
      ssl_ctx->set_default_verify_paths(ec);
    }
    if (!t.cert_file.empty() || !t.key_file.empty()) {
      if (t.cert_file.empty() || t.key_file.empty()) {
        tls_status = Status::invalid("TLS: cert_file and key_file must be given together");
        return;
      }
      ssl_ctx->use_certificate_chain_file(t.cert_file, ec);
      if (ec) tls_status = Status::invalid("TLS: cannot load cert_file \"" + t.cert_file + "\": " + ec.message());
      ssl_ctx->use_private_key_file(t.key_file, ssl::context::pem, ec);
      if (ec) tls_status = Status::invalid("TLS: cannot load key_file \"" + t.key_file + "\": " + ec.message());
    }
    ssl_ctx->set_verify_mode(t.insecure_skip_verify ? ssl::verify_none : ssl::verify_peer);
  }

  std::unique_ptr<Conn> takeIdle(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu);
    auto it = idle.find(key);
    if (it == idle.end() || it->second.empty()) return nullptr;
    auto c = std::move(it->second.back());
    it->second.pop_back();
    return c;
  }

  void giveBack(const std::string& key, std::unique_ptr<Conn> c) {
    std::lock_guard<std::mutex> lock(mu);
    auto& v = idle[key];
    if (v.size() < opts.max_idle_per_host) v.push_back(std::move(c));
  }

  Status connect(Conn& c, const Url& url, Clock::time_point deadline, std::chrono::milliseconds timeout);
  HttpResult exchange(Conn& c, const Url& url, const http::request<http::string_body>& req,
                      Clock::time_point deadline, std::chrono::milliseconds timeout, bool* stale, bool* keep_alive);
  HttpResult finish(const Url& url, http::response_parser<http::string_body>& p);
};

Status HttpClient::Impl::connect(Conn& c, const Url& url, Clock::time_point deadline, std::chrono::milliseconds timeout) {
  tcp::resolver resolver(c.ioc);
  beast::error_code ec;
  tcp::resolver::results_type results;
  bool resolved = false;
  resolver.async_resolve(url.host, std::to_string(url.port), [&](beast::error_code e, tcp::resolver::results_type r) {
    ec = e;
    results = std::move(r);
    resolved = true;
  });
  c.ioc.restart();
  c.ioc.run_until(deadline);
  if (!resolved) {
    resolver.cancel();
    c.run();
    return transportError(url, "resolve", beast::error::timeout, timeout);
  }
  if (ec) return transportError(url, "resolve", ec, timeout);
  if (url.tls()) {
    c.tls.emplace(c.ioc, *ssl_ctx);
  } else {
    c.tcp.emplace(c.ioc);
  }
  c.lowest().expires_at(deadline);
  c.lowest().async_connect(results, [&](beast::error_code e, const tcp::endpoint&) { ec = e; });
  c.run();
  if (ec) return transportError(url, "connect", ec, timeout);
  c.lowest().socket().set_option(tcp::no_delay(true), ec);
  if (!c.tls) return Status::ok();

  const std::string& name = opts.tls.server_name_override.empty() ? url.host : opts.tls.server_name_override;
  beast::error_code addr_ec;
  asio::ip::make_address(name, addr_ec);
  // SNI carries names only, never IP literals (RFC 6066 3).
  if (addr_ec && !SSL_set_tlsext_host_name(c.tls->native_handle(), name.c_str())) {
    return Status::unavailable(url.authority() + ": cannot set TLS server name");
  }
  if (!opts.tls.insecure_skip_verify) c.tls->set_verify_callback(ssl::host_name_verification(name));
  c.tls->async_handshake(ssl::stream_base::client, [&](beast::error_code e) { ec = e; });
  c.run();
  if (ec) return transportError(url, "TLS handshake", ec, timeout);
  return Status::ok();
}

HttpResult HttpClient::Impl::exchange(Conn& c, const Url& url, const http::request<http::string_body>& req,
                                      Clock::time_point deadline, std::chrono::milliseconds timeout, bool* stale,
                                      bool* keep_alive) {
  HttpResult r;
  beast::error_code ec;
  c.lowest().expires_at(deadline);
  auto onDone = [&](beast::error_code e, size_t) { ec = e; };
  if (c.tls) {
    http::async_write(*c.tls, req, onDone);
  } else {
    http::async_write(*c.tcp, req, onDone);
  }
  c.run();
  if (ec) {
    *stale = isStaleConnectionError(ec);
    r.status = transportError(url, "write", ec, timeout);
    return r;
  }
  http::response_parser<http::string_body> p;
  p.header_limit(64u << 10);
  p.body_limit(static_cast<uint64_t>(opts.max_response_bytes));
  if (req.method() == http::verb::head) p.skip(true);
  c.lowest().expires_at(deadline);
  if (c.tls) {
    http::async_read_header(*c.tls, c.buf, p, onDone);
  } else {
    http::async_read_header(*c.tcp, c.buf, p, onDone);
  }
  c.run();
  // Beast 1.74 does not reliably apply body_limit to a Content-Length response; check it here,
  // before reading the body (chunked and read-to-EOF bodies are limited by the parser).
  if (!ec && p.content_length() && *p.content_length() > opts.max_response_bytes) ec = http::error::body_limit;
  if (!ec && !p.is_done()) {
    if (c.tls) {
      http::async_read(*c.tls, c.buf, p, onDone);
    } else {
      http::async_read(*c.tcp, c.buf, p, onDone);
    }
    c.run();
  }
  if (ec == http::error::body_limit) {
    r.status = Status::tooLarge(url.authority() + ": response body exceeds limit of " + sizeText(opts.max_response_bytes));
    return r;
  }
  if (ec) {
    *stale = isStaleConnectionError(ec) && !p.got_some();
    r.status = transportError(url, "read response", ec, timeout);
    return r;
  }
  *keep_alive = p.get().keep_alive() && !p.need_eof();
  return finish(url, p);
}

HttpResult HttpClient::Impl::finish(const Url& url, http::response_parser<http::string_body>& p) {
  HttpResult r;
  auto& msg = p.get();
  r.http_status = static_cast<int>(msg.result_int());
  for (const auto& f : msg) r.headers.emplace(std::string(f.name_string()), std::string(f.value()));
  std::string_view enc = headerValue(r.headers, "Content-Encoding");
  auto codec = compression::codecFromName(enc);
  if (!codec) {
    r.status = Status::unavailable(url.authority() + ": unsupported response Content-Encoding \"" + std::string(enc) + "\"");
    return r;
  }
  if (*codec == compression::Codec::kNone || msg.body().empty()) {
    r.body = std::move(msg.body());
    return r;
  }
  compression::Limits limits;
  limits.max_output_bytes = opts.max_response_bytes;
  r.status = compression::decompress(*codec, msg.body(), r.body, limits);
  return r;
}

HttpClient::HttpClient(HttpClientOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
HttpClient::~HttpClient() = default;

Status HttpClient::tlsStatus() const { return impl_->tls_status; }

HttpResult HttpClient::request(std::string_view method, std::string_view url_text, const HttpHeaders& headers,
                               std::string_view body, std::chrono::milliseconds timeout) {
  HttpResult r;
  Url url;
  if (r.status = parseUrl(url_text, &url); !r.status.isOk()) return r;
  if (url.tls() && !impl_->tls_status.isOk()) {
    r.status = impl_->tls_status;
    return r;
  }
  http::verb verb = http::string_to_verb(beast::string_view(method.data(), method.size()));
  if (verb == http::verb::unknown) {
    r.status = Status::invalid("unsupported HTTP method \"" + std::string(method) + "\"");
    return r;
  }
  http::request<http::string_body> req(verb, url.target, 11);
  req.set(http::field::host, url.authority());
  req.set(http::field::user_agent, impl_->opts.user_agent);
  for (const auto& [k, v] : headers) req.set(k, v);
  req.body().assign(body.data(), body.size());
  req.keep_alive(true);
  req.prepare_payload();

  auto deadline = Clock::now() + timeout;
  std::string key = url.scheme + "://" + url.authority();
  // A pooled connection may have been closed by the server while idle; if it fails before any
  // response byte, the server never saw the request, so one retry on a fresh connection is safe.
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::unique_ptr<Conn> c = attempt == 0 ? impl_->takeIdle(key) : nullptr;
    bool reused = c != nullptr;
    if (!c) {
      c = std::make_unique<Conn>();
      if (Status s = impl_->connect(*c, url, deadline, timeout); !s.isOk()) {
        r.status = s;
        return r;
      }
    }
    bool stale = false, keep_alive = false;
    r = impl_->exchange(*c, url, req, deadline, timeout, &stale, &keep_alive);
    if (!r.status.isOk() && reused && stale) continue;
    // Leftover bytes would be a response to a request we never sent: don't reuse such a stream.
    if (r.status.isOk() && keep_alive && c->buf.size() == 0) impl_->giveBack(key, std::move(c));
    return r;
  }
  return r;
}

Status HttpResult::toStatus() const {
  if (!status.isOk()) return status;
  if (http_status >= 200 && http_status < 300) return Status::ok();
  std::string msg = "HTTP " + std::to_string(http_status);
  if (!body.empty()) msg += ": " + body.substr(0, 512);
  Status s = statusFromHttp(http_status, std::move(msg));
  if (http_status == 429 || http_status == 503) s.withRetryAfter(parseRetryAfter(headerValue(headers, "Retry-After")));
  return s;
}

}  // namespace proflow::net
