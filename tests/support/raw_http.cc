#include "tests/support/raw_http.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <strings.h>

namespace proflow::testing {
namespace {

using Clock = std::chrono::steady_clock;

int msLeft(Clock::time_point until) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

// Content-Length of a response head, -1 when absent.
long long contentLength(const std::string& head) {
  size_t pos = 0;
  while ((pos = head.find("\r\n", pos)) != std::string::npos) {
    pos += 2;
    static constexpr std::string_view kName = "content-length:";
    if (head.size() - pos >= kName.size() && strncasecmp(head.data() + pos, kName.data(), kName.size()) == 0)
      return std::atoll(head.c_str() + pos + kName.size());
  }
  return -1;
}

// Splits what was read into status, headers and body once the head is complete.
void parse(const std::string& in, RawResponse* out) {
  size_t end = in.find("\r\n\r\n");
  if (end == std::string::npos || in.rfind("HTTP/1.", 0) != 0) return;
  out->status = std::atoi(in.c_str() + 9);
  out->headers = in.substr(0, end + 2);
  out->body = in.substr(end + 4);
}

bool responseComplete(const std::string& in) {
  size_t end = in.find("\r\n\r\n");
  if (end == std::string::npos) return false;
  long long len = contentLength(in.substr(0, end + 2));
  return len >= 0 && in.size() - (end + 4) >= static_cast<size_t>(len);
}

}  // namespace

int connectLoopback(int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(static_cast<uint16_t>(port));
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

std::string requestHead(std::string_view method, std::string_view target, const RawHeaders& headers,
                        size_t content_length) {
  std::string head = std::string(method) + " " + std::string(target) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
                     "Connection: close\r\n";
  bool has_length = false;
  for (const auto& [k, v] : headers) {
    has_length = has_length || strcasecmp(k.c_str(), "content-length") == 0;
    head += k + ": " + v + "\r\n";
  }
  if (!has_length) head += "Content-Length: " + std::to_string(content_length) + "\r\n";
  return head + "\r\n";
}

RawResponse rawExchange(int port, const std::string& head, std::string_view body, std::chrono::milliseconds timeout) {
  RawResponse out;
  const auto until = Clock::now() + timeout;
  int fd = connectLoopback(port);
  if (fd < 0) return out;
  const std::string first = head;
  size_t sent = 0;
  const size_t total = first.size() + body.size();
  std::string in;
  bool closed = false, writing = true;
  char buf[65536];
  while (!closed && msLeft(until) > 0 && !responseComplete(in)) {
    pollfd p{fd, static_cast<short>(POLLIN | (writing && sent < total ? POLLOUT : 0)), 0};
    if (poll(&p, 1, msLeft(until)) <= 0) break;
    if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t n = recv(fd, buf, sizeof buf, 0);
      if (n <= 0) closed = true;
      else in.append(buf, static_cast<size_t>(n));
      writing = false;  // the server answered (or closed): the rest of the body is not wanted
      continue;
    }
    if (p.revents & POLLOUT) {
      std::string_view chunk = sent < first.size() ? std::string_view(first).substr(sent)
                                                   : body.substr(sent - first.size(), 1 << 20);
      ssize_t n = send(fd, chunk.data(), chunk.size(), MSG_NOSIGNAL);
      if (n < 0) {
        writing = false;  // reset by the peer: read what it answered, if anything
        continue;
      }
      sent += static_cast<size_t>(n);
      if (sent == total) out.body_sent = true;
    }
  }
  close(fd);
  parse(in, &out);
  return out;
}

RawResponse rawPost(int port, std::string_view target, const RawHeaders& headers, std::string_view body,
                    std::chrono::milliseconds timeout) {
  return rawExchange(port, requestHead("POST", target, headers, body.size()), body, timeout);
}

}  // namespace proflow::testing
