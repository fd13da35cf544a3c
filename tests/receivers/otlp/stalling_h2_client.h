// An HTTP/2 client that opens gRPC Export calls and then stalls them, as a hostile or broken client
// would: it announces a stream flow-control window of 0, so the server can never send an answer's
// message, and may leave out the request message altogether. It answers the server's SETTINGS and
// PINGs, so the connection itself stays healthy. Written from RFC 9113 / RFC 7541 (literal header
// fields only, no Huffman, no dynamic table); nothing from the code under test is used.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace proflow::testing {

class StallingH2Client {
 public:
  explicit StallingH2Client(int port) : port_(port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    if (!connected_) return;
    std::string out = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";
    // SETTINGS: ENABLE_PUSH (0x2) = 0, INITIAL_WINDOW_SIZE (0x4) = 0.
    out += frame(0x4, 0, 0, setting(0x2, 0) + setting(0x4, 0));
    send(out);
    reader_ = std::thread([this] { readLoop(); });
  }

  ~StallingH2Client() {
    ::shutdown(fd_, SHUT_RDWR);
    if (reader_.joinable()) reader_.join();
    ::close(fd_);
  }

  bool connected() const { return connected_; }

  // Opens `n` Export calls; with `send_message` each carries an empty request and half-closes,
  // without it each sends only its headers. `authorization`: the header's value, if any.
  void openCalls(int n, bool send_message, const std::string& authorization = "") {
    std::string out;
    for (int i = 0; i < n; ++i) {
      const uint32_t id = next_stream_;
      next_stream_ += 2;
      std::string block;
      for (const auto& [name, value] :
           {std::pair<std::string, std::string>{":method", "POST"},
            {":scheme", "http"},
            {":path", "/opentelemetry.proto.collector.profiles.v1development.ProfilesService/Export"},
            {":authority", "127.0.0.1:" + std::to_string(port_)},
            {"content-type", "application/grpc"},
            {"te", "trailers"}})
        block += literal(name, value);
      if (!authorization.empty()) block += literal("authorization", authorization);
      out += frame(0x1, 0x4, id, block);  // HEADERS, END_HEADERS
      if (send_message) out += frame(0x0, 0x1, id, std::string(5, '\0'));  // DATA: empty message, END_STREAM
      std::lock_guard lock(mu_);
      streams_[id] = State::kOpen;
    }
    send(out);
  }

  // Waits until every opened call was either finished by the server (trailers or reset) or has
  // its answer started (response headers), i.e. the server has decided on each of them.
  // Returns the number finished.
  int waitDecided() {
    std::unique_lock lock(mu_);
    changed_.wait(lock, [this] {
      for (const auto& [id, state] : streams_)
        if (state == State::kOpen) return false;
      return true;
    });
    int finished = 0;
    for (const auto& [id, state] : streams_) finished += state == State::kFinished;
    return finished;
  }

 private:
  enum class State { kOpen, kAnswering, kFinished };

  static std::string setting(uint16_t id, uint32_t value) {
    std::string s;
    s.push_back(static_cast<char>(id >> 8));
    s.push_back(static_cast<char>(id));
    for (int shift = 24; shift >= 0; shift -= 8) s.push_back(static_cast<char>(value >> shift));
    return s;
  }

  static std::string frame(uint8_t type, uint8_t flags, uint32_t stream, const std::string& payload) {
    std::string f;
    const size_t n = payload.size();
    f.push_back(static_cast<char>(n >> 16));
    f.push_back(static_cast<char>(n >> 8));
    f.push_back(static_cast<char>(n));
    f.push_back(static_cast<char>(type));
    f.push_back(static_cast<char>(flags));
    for (int shift = 24; shift >= 0; shift -= 8) f.push_back(static_cast<char>((stream >> shift) & 0xff));
    return f + payload;
  }

  // RFC 7541 5.1 integer with a 7-bit prefix (H bit 0: not Huffman coded).
  static std::string length7(size_t n) {
    std::string s;
    if (n < 127) {
      s.push_back(static_cast<char>(n));
      return s;
    }
    s.push_back(static_cast<char>(127));
    for (n -= 127; n >= 128; n /= 128) s.push_back(static_cast<char>(n % 128 + 128));
    s.push_back(static_cast<char>(n));
    return s;
  }

  // Literal header field without indexing, new name (RFC 7541 6.2.2).
  static std::string literal(const std::string& name, const std::string& value) {
    return std::string(1, '\0') + length7(name.size()) + name + length7(value.size()) + value;
  }

  void send(const std::string& bytes) {
    std::lock_guard lock(write_mu_);
    for (size_t done = 0; done < bytes.size();) {
      const ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
      if (n <= 0) return;
      done += static_cast<size_t>(n);
    }
  }

  bool readExactly(std::string* out, size_t n) {
    out->resize(n);
    for (size_t done = 0; done < n;) {
      const ssize_t got = ::recv(fd_, out->data() + done, n - done, 0);
      if (got <= 0) return false;
      done += static_cast<size_t>(got);
    }
    return true;
  }

  void mark(uint32_t stream, State state) {
    std::lock_guard lock(mu_);
    auto it = streams_.find(stream);
    if (it == streams_.end() || it->second == State::kFinished) return;
    it->second = state;
    changed_.notify_all();
  }

  void readLoop() {
    std::string head, payload;
    while (readExactly(&head, 9)) {
      const auto byte = [&](size_t i) { return static_cast<uint8_t>(head[i]); };
      const size_t length = (size_t{byte(0)} << 16) | (size_t{byte(1)} << 8) | byte(2);
      const uint8_t type = byte(3), flags = byte(4);
      const uint32_t stream = ((uint32_t{byte(5)} & 0x7f) << 24) | (uint32_t{byte(6)} << 16) |
                              (uint32_t{byte(7)} << 8) | byte(8);
      if (!readExactly(&payload, length)) break;
      if (type == 0x4 && !(flags & 0x1)) send(frame(0x4, 0x1, 0, ""));         // SETTINGS -> ACK
      if (type == 0x6 && !(flags & 0x1)) send(frame(0x6, 0x1, 0, payload));    // PING -> ACK
      if (type == 0x3) mark(stream, State::kFinished);                          // RST_STREAM
      if (type == 0x1) mark(stream, (flags & 0x1) ? State::kFinished : State::kAnswering);  // HEADERS
      if (type == 0x0 && (flags & 0x1)) mark(stream, State::kFinished);         // DATA, END_STREAM
    }
    // Connection gone: nothing more will be decided.
    std::lock_guard lock(mu_);
    for (auto& [id, state] : streams_)
      if (state == State::kOpen) state = State::kFinished;
    changed_.notify_all();
  }

  int port_;
  int fd_ = -1;
  bool connected_ = false;
  uint32_t next_stream_ = 1;
  std::mutex write_mu_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::map<uint32_t, State> streams_;
  std::thread reader_;
};

}  // namespace proflow::testing
