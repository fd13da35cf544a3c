// A blocking HTTPS/1.1 server on 127.0.0.1 for TLS client tests (no proflow code on the server side),
// and a self-signed certificate made with the openssl CLI.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace proflow::testing {

// Writes a key and a self-signed certificate for DNS:localhost only (so https://127.0.0.1 fails host
// verification). Returns false when the openssl CLI failed.
bool makeSelfSignedCert(const std::string& cert_path, const std::string& key_path);

class TlsTestServer {
 public:
  // Answers each request 200 with handler(target, body) as the body; connections one at a time,
  // keep-alive.
  using Handler = std::function<std::string(const std::string& target, const std::string& body)>;
  TlsTestServer(const std::string& cert, const std::string& key, Handler handler);
  ~TlsTestServer();

  uint16_t port() const;
  int connections() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace proflow::testing
