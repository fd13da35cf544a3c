// Connection settings and connect() shared by the `nats` exporter and receiver. The connection
// reconnects forever on its own (cnats), so a broker restart never needs a daemon restart.
#pragma once

#include <nats/nats.h>

#include <memory>
#include <string>

#include "core/config/config_reader.h"
#include "core/util/status.h"

namespace proflow::brokers {

struct NatsTlsConfig {
  bool enabled = false;  // also implied by a tls:// URL
  std::string ca_file, cert_file, key_file;
  template <class V>
  void visit(V& v) {
    v.field("enabled", enabled, "connect with TLS");
    v.field("ca_file", ca_file, "trust this CA instead of the system store");
    v.field("cert_file", cert_file, "client certificate (mutual TLS)");
    v.field("key_file", key_file, "client private key (mutual TLS)");
  }
};

struct NatsConnectionConfig {
  std::string url = "nats://127.0.0.1:4222";  // comma-separated list for a cluster
  std::string username, password, token;      // never logged
  NatsTlsConfig tls;
  config::Duration connect_timeout = std::chrono::seconds(2);
  config::Duration reconnect_wait = std::chrono::milliseconds(500);

  template <class V>
  void visit(V& v) {
    v.field("url", url, "NATS server URL(s), comma-separated");
    v.field("username", username, "user name (with password)");
    v.field("password", password, "password (with username)");
    v.field("token", token, "authentication token");
    v.field("tls", tls);
    v.field("connect_timeout", connect_timeout, "timeout of one connection attempt");
    v.field("reconnect_wait", reconnect_wait, "wait between reconnection attempts");
  }
  void validate(config::ValidationContext& ctx) const;
};

struct NatsConnectionDeleter {
  void operator()(natsConnection* nc) const;
};
using NatsConnectionPtr = std::unique_ptr<natsConnection, NatsConnectionDeleter>;

// A natsStatus as a pipeline status: transient conditions are kUnavailable (retryable).
Status natsStatus(natsStatus s, const std::string& what);

// Connects (or, when the server is not up yet, returns a connection that keeps trying in the
// background: publishes and fetches fail as unavailable until it is up). `name` identifies the client.
Status connectNats(const NatsConnectionConfig& config, const std::string& name, NatsConnectionPtr* out);

// A JetStream subject or stream/consumer name check for validate(): "" when fine, else why not.
std::string natsNameProblem(const std::string& name, bool allow_dots_and_wildcards);

}  // namespace proflow::brokers
