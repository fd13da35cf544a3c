#include "tests/brokers/kafka_auth_peer.h"

#include <sys/socket.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <list>
#include <mutex>
#include <thread>

namespace proflow::testing {
namespace {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = asio::ip::tcp;

// API keys and error codes of the Kafka protocol used here.
constexpr int kSaslHandshake = 17, kApiVersions = 18, kSaslAuthenticate = 36;
constexpr int kUnsupportedSaslMechanism = 33, kSaslAuthenticationFailed = 58;
constexpr uint32_t kMaxRequestBytes = 1 << 20;

struct ApiRange {
  int key, min, max;
};
// What a broker of the Kafka 2.x era advertises for the requests a client sends up to being
// authenticated and just after (Produce, Metadata, FindCoordinator, InitProducerId).
constexpr ApiRange kApis[] = {{0, 0, 7},  {3, 0, 4},  {10, 0, 2}, {kSaslHandshake, 0, 1},
                              {kApiVersions, 0, 3}, {22, 0, 1}, {kSaslAuthenticate, 0, 1}};

// Big-endian fields of one request; a read past the end marks it bad.
class Reader {
 public:
  explicit Reader(const std::string& bytes) : b_(bytes) {}
  bool ok() const { return ok_; }
  int16_t i16() { return static_cast<int16_t>(be(2)); }
  int32_t i32() { return static_cast<int32_t>(be(4)); }
  std::string bytes(int64_t n) {
    if (n < 0 || pos_ + static_cast<size_t>(n) > b_.size()) {
      ok_ = false;
      return "";
    }
    std::string s = b_.substr(pos_, static_cast<size_t>(n));
    pos_ += static_cast<size_t>(n);
    return s;
  }
  std::string str() { return bytes(i16()); }
  uint64_t uvarint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && ok_; shift += 7) {
      const uint64_t c = be(1);
      v |= (c & 0x7f) << shift;
      if ((c & 0x80) == 0) return v;
    }
    ok_ = false;
    return 0;
  }
  void skipTaggedFields() {
    const uint64_t n = uvarint();
    for (uint64_t i = 0; i < n && ok_; ++i) {
      uvarint();
      bytes(static_cast<int64_t>(uvarint()));
    }
  }

 private:
  uint64_t be(int n) {
    if (pos_ + static_cast<size_t>(n) > b_.size()) {
      ok_ = false;
      return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | static_cast<uint8_t>(b_[pos_++]);
    return v;
  }
  const std::string& b_;
  size_t pos_ = 0;
  bool ok_ = true;
};

struct Writer {
  std::string out;
  void be(int64_t v, int n) {
    for (int i = n - 1; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void i16(int64_t v) { be(v, 2); }
  void i32(int64_t v) { be(v, 4); }
  void uvarint(uint64_t v) {
    for (; v >= 0x80; v >>= 7) out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    out.push_back(static_cast<char>(v));
  }
  void str(const std::string& s) {
    i16(static_cast<int64_t>(s.size()));
    out += s;
  }
};

std::string apiVersionsBody(int version) {
  Writer w;
  w.i16(0);
  const size_t n = std::size(kApis);
  if (version >= 3) {  // flexible: compact array, tagged fields
    w.uvarint(n + 1);
    for (const auto& a : kApis) {
      w.i16(a.key), w.i16(a.min), w.i16(a.max);
      w.uvarint(0);
    }
    w.i32(0);  // throttle_time_ms
    w.uvarint(0);
    return w.out;
  }
  w.i32(static_cast<int64_t>(n));
  for (const auto& a : kApis) w.i16(a.key), w.i16(a.min), w.i16(a.max);
  if (version >= 1) w.i32(0);
  return w.out;
}

}  // namespace

struct KafkaAuthPeer::Impl {
  explicit Impl(Options o) : options(std::move(o)) {
    if (!options.cert_file.empty()) {
      tls = std::make_unique<ssl::context>(ssl::context::tls_server);
      tls->use_certificate_chain_file(options.cert_file);
      tls->use_private_key_file(options.key_file, ssl::context::pem);
    }
    acceptor.open(tcp::v4());
    acceptor.bind({asio::ip::address_v4::loopback(), 0});
    acceptor.listen();
    port = acceptor.local_endpoint().port();
    accepter = std::thread([this] { acceptLoop(); });
  }

  ~Impl() {
    stop = true;
    boost::system::error_code ec;
    tcp::socket poke(ioc);
    poke.connect({asio::ip::address_v4::loopback(), port}, ec);  // unblocks accept()
    accepter.join();
    {
      std::lock_guard lock(mu);
      for (auto& s : sockets) ::shutdown(s->native_handle(), SHUT_RDWR);  // unblocks the readers
    }
    for (auto& t : connections) t.join();
  }

  void acceptLoop() {
    while (!stop) {
      auto s = std::make_unique<tcp::socket>(ioc);
      boost::system::error_code ec;
      acceptor.accept(*s, ec);
      if (ec || stop) return;
      tcp::socket* sock = s.get();
      {
        std::lock_guard lock(mu);
        sockets.push_back(std::move(s));
        ++seen.connections;
      }
      connections.emplace_back([this, sock] { serve(*sock); });
    }
  }

  void serve(tcp::socket& socket) {
    if (!tls) return serveKafka(socket);
    ssl::stream<tcp::socket&> stream(socket, *tls);
    boost::system::error_code ec;
    stream.handshake(ssl::stream_base::server, ec);
    update([&](Seen& s) { ++(ec ? s.tls_failures : s.tls_handshakes); });
    if (!ec) serveKafka(stream);
  }

  template <class Stream>
  void serveKafka(Stream& stream) {
    boost::system::error_code ec;
    while (true) {
      unsigned char size[4];
      asio::read(stream, asio::buffer(size), ec);
      if (ec) return;
      const uint32_t n = (uint32_t{size[0]} << 24) | (uint32_t{size[1]} << 16) | (uint32_t{size[2]} << 8) | size[3];
      if (n > kMaxRequestBytes) return;
      std::string frame(n, '\0');
      asio::read(stream, asio::buffer(frame), ec);
      if (ec) return;
      bool keep_open = true;
      const std::string body = answer(frame, &keep_open);
      if (!body.empty()) {
        asio::write(stream, asio::buffer(body), ec);
        if (ec) return;
      }
      if (!keep_open) return;  // a broker closes the connection after a refused login
    }
  }

  // The framed response to one request, "" for requests this peer leaves unanswered.
  std::string answer(const std::string& frame, bool* keep_open) {
    Reader r(frame);
    const int key = r.i16(), version = r.i16();
    const int32_t correlation = r.i32();
    const int16_t id_size = r.i16();
    const std::string client_id = id_size >= 0 ? r.bytes(id_size) : "";
    if ((key == kApiVersions && version >= 3) || (key == kSaslAuthenticate && version >= 2)) r.skipTaggedFields();
    if (!r.ok()) {
      *keep_open = false;
      return "";
    }
    update([&](Seen& s) {
      s.api_keys.push_back(key);
      s.client_ids.push_back(client_id);
    });
    Writer body;
    switch (key) {
      case kApiVersions: body.out = apiVersionsBody(version); break;
      case kSaslHandshake: {
        const std::string mechanism = r.str();
        update([&](Seen& s) { s.mechanisms.push_back(mechanism); });
        body.i16(mechanism == "PLAIN" ? 0 : kUnsupportedSaslMechanism);
        body.i32(1);
        body.str("PLAIN");
        break;
      }
      case kSaslAuthenticate: {
        // PLAIN (RFC 4616): authorization id NUL user NUL password.
        const std::string token = r.bytes(r.i32());
        const size_t a = token.find('\0'), b = a == std::string::npos ? a : token.find('\0', a + 1);
        const std::string user = b == std::string::npos ? "" : token.substr(a + 1, b - a - 1);
        const std::string password = b == std::string::npos ? "" : token.substr(b + 1);
        const bool ok = b != std::string::npos && user == options.username && password == options.password;
        update([&](Seen& s) {
          s.logins.emplace_back(user, password);
          ++(ok ? s.accepted : s.refused);
        });
        body.i16(ok ? 0 : kSaslAuthenticationFailed);
        if (ok)
          body.i16(-1);  // no error message
        else
          body.str("Authentication failed: Invalid username or password");
        body.i32(0);                       // no auth bytes back
        if (version >= 1) body.be(0, 8);  // session_lifetime_ms: none
        *keep_open = ok;
        break;
      }
      default: return "";  // past authentication: not this peer's part
    }
    Writer framed;
    framed.i32(static_cast<int64_t>(4 + body.out.size()));
    framed.i32(correlation);  // response header v0, ApiVersions' even when flexible
    return framed.out + body.out;
  }

  template <class F>
  void update(F&& f) {
    {
      std::lock_guard lock(mu);
      f(seen);
    }
    cv.notify_all();
  }

  Options options;
  asio::io_context ioc;
  std::unique_ptr<ssl::context> tls;
  tcp::acceptor acceptor{ioc};
  uint16_t port = 0;
  std::atomic<bool> stop{false};
  std::thread accepter;
  std::vector<std::thread> connections;  // accepter thread only, until joined
  mutable std::mutex mu;
  mutable std::condition_variable cv;
  std::list<std::unique_ptr<tcp::socket>> sockets;
  Seen seen;
};

KafkaAuthPeer::KafkaAuthPeer(Options options) : impl_(std::make_unique<Impl>(std::move(options))) {}
KafkaAuthPeer::~KafkaAuthPeer() = default;

std::string KafkaAuthPeer::bootstrap() const { return "localhost:" + std::to_string(impl_->port); }

KafkaAuthPeer::Seen KafkaAuthPeer::seen() const {
  std::lock_guard lock(impl_->mu);
  return impl_->seen;
}

bool KafkaAuthPeer::waitFor(const std::function<bool(const Seen&)>& done, std::chrono::milliseconds timeout) const {
  std::unique_lock lock(impl_->mu);
  return impl_->cv.wait_for(lock, timeout, [&] { return done(impl_->seen); });
}

}  // namespace proflow::testing
