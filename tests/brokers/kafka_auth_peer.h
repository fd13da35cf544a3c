// The front door of a Kafka broker, for client security tests: on 127.0.0.1, optionally inside TLS,
// it answers ApiVersions, SaslHandshake and SaslAuthenticate (mechanism PLAIN) as a broker does and
// records what the client sent; requests after authentication go unanswered. librdkafka's mock
// cluster speaks neither SASL nor TLS, and no Kafka broker is packaged, so this is how the kafka
// components' `sasl.*` and `ssl.*` settings are seen on the wire.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace proflow::testing {

class KafkaAuthPeer {
 public:
  struct Options {
    std::string cert_file, key_file;  // both set: TLS (SSL / SASL_SSL clients)
    std::string username, password;   // the one PLAIN login accepted
  };
  // What clients did so far.
  struct Seen {
    int connections = 0;
    int tls_handshakes = 0;         // completed
    int tls_failures = 0;           // the client gave up (e.g. it did not trust the certificate)
    std::vector<int> api_keys;      // requests, in arrival order over all connections
    std::vector<std::string> client_ids;
    std::vector<std::string> mechanisms;  // SaslHandshake
    std::vector<std::pair<std::string, std::string>> logins;  // SaslAuthenticate: user, password
    int accepted = 0, refused = 0;  // logins
  };

  explicit KafkaAuthPeer(Options options);
  ~KafkaAuthPeer();
  KafkaAuthPeer(const KafkaAuthPeer&) = delete;
  KafkaAuthPeer& operator=(const KafkaAuthPeer&) = delete;

  // "localhost:<port>": TLS clients check the certificate's name (DNS:localhost).
  std::string bootstrap() const;
  Seen seen() const;
  // Waits until `done(seen())` holds; false at the timeout.
  bool waitFor(const std::function<bool(const Seen&)>& done, std::chrono::milliseconds timeout) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace proflow::testing
