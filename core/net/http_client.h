// A synchronous HTTP/1.1 client (Boost.Beast, OpenSSL for https) for exporters and scrapers.
// Thread-safe: concurrent request() calls use separate connections; idle keep-alive connections
// are pooled per scheme+host+port and reused. Response bodies are capped.
//
//   net::HttpClient client({});
//   auto r = client.request("POST", "http://127.0.0.1:4318/v1development/profiles",
//                           {{"Content-Type", "application/x-protobuf"}}, body, std::chrono::seconds(5));
//   Status s = r.toStatus();  // transport or HTTP failure, retryable or not, with Retry-After
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "core/net/http_types.h"
#include "core/util/status.h"

namespace proflow::net {

struct TlsClientOptions {
  // Only for gRPC-style configs that share this struct; for HTTP the URL scheme decides.
  bool insecure = false;
  std::string ca_file;    // PEM bundle to trust instead of the system store
  std::string cert_file;  // client certificate (PEM chain) for mTLS
  std::string key_file;   // its private key (PEM)
  bool insecure_skip_verify = false;  // no chain or host name verification
  std::string server_name_override;   // name for SNI and certificate verification instead of the URL host
};

struct HttpClientOptions {
  TlsClientOptions tls;
  size_t max_response_bytes = 4u << 20;  // after Content-Encoding decompression
  size_t max_idle_per_host = 4;
  std::string user_agent = "proflow";
};

struct [[nodiscard]] HttpResult {
  // Transport outcome only: kUnavailable (resolve/connect/TLS/IO errors), kDeadlineExceeded
  // (timeout), kPayloadTooLarge (response over the cap), kInvalidArgument (bad URL/method).
  // OK means an HTTP response arrived, whatever its code.
  Status status;
  int http_status = 0;
  HttpHeaders headers;
  std::string body;

  // `status` if not OK; else the HTTP code mapped with statusFromHttp() (message carries the
  // start of the body), with Retry-After attached for 429/503.
  Status toStatus() const;
};

class HttpClient {
 public:
  explicit HttpClient(HttpClientOptions options);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Errors loading the TLS files (checked at construction); request() returns it for https too.
  Status tlsStatus() const;

  // Sends one request and reads the whole response within `timeout` (connect included).
  // Content-Length/Host/User-Agent are set unless given in `headers`.
  HttpResult request(std::string_view method, std::string_view url, const HttpHeaders& headers,
                     std::string_view body, std::chrono::milliseconds timeout);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace proflow::net
