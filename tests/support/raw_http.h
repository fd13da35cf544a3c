// HTTP/1.1 over a raw socket on 127.0.0.1, for tests that must send what a well-behaved client never
// would: lying Content-Length, bodies the server refuses half-way, connections that stall. Nothing
// from the code under test is used.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace proflow::testing {

struct RawResponse {
  int status = 0;  // 0: no response (connection refused, reset before a status line, or timeout)
  std::string headers;
  std::string body;
  bool body_sent = false;  // the whole body was written before the server answered or closed
};

using RawHeaders = std::vector<std::pair<std::string, std::string>>;

// "POST <target> HTTP/1.1" with Host, Connection: close, the given headers, and Content-Length
// `content_length` unless a header of that name is given.
std::string requestHead(std::string_view method, std::string_view target, const RawHeaders& headers,
                        size_t content_length);

// Connects, writes `head` and `body` and reads one response until the server closes or the body it
// announced is complete. Writing stops as soon as the server answers or closes (a server may refuse
// before reading everything); `timeout` bounds the whole exchange.
RawResponse rawExchange(int port, const std::string& head, std::string_view body,
                        std::chrono::milliseconds timeout = std::chrono::seconds(60));

// requestHead + rawExchange.
RawResponse rawPost(int port, std::string_view target, const RawHeaders& headers, std::string_view body,
                    std::chrono::milliseconds timeout = std::chrono::seconds(60));

// A connected socket to 127.0.0.1:port (-1 on failure); the caller closes it.
int connectLoopback(int port);

}  // namespace proflow::testing
