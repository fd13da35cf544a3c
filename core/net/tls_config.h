// The `tls` blocks, in the Collector's shapes. Clients (exporters, scrapers):
//   tls: { insecure: false, ca_file: ca.pem, cert_file: client.pem, key_file: client.key,
//          insecure_skip_verify: false, server_name_override: "" }
// Servers (receivers; absent = plain text):
//   tls: { cert_file: server.pem, key_file: server.key, client_ca_file: clients-ca.pem }
#pragma once

#include <string>

#include "core/config/config_reader.h"
#include "core/net/http_client.h"

namespace proflow::net {

struct TlsClientConfig {
  bool insecure = false;  // plain text (no TLS at all)
  std::string ca_file;
  std::string cert_file;
  std::string key_file;
  bool insecure_skip_verify = false;
  std::string server_name_override;

  template <class V>
  void visit(V& v) {
    v.field("insecure", insecure, "send in plain text without TLS");
    v.field("ca_file", ca_file, "PEM CA bundle to verify the server");
    v.field("cert_file", cert_file, "PEM client certificate (mTLS)");
    v.field("key_file", key_file, "PEM client key (mTLS)");
    v.field("insecure_skip_verify", insecure_skip_verify, "do not verify the server certificate");
    v.field("server_name_override", server_name_override, "name expected in the server certificate");
  }
  // Checks that files exist and cert/key come together.
  void validate(config::ValidationContext& ctx) const;
  // validate() for an HTTP client sending to `url`. Over HTTP the URL scheme decides TLS (as in the
  // Collector's confighttp): http:// is plain text, https:// is TLS. `insecure: true` with an
  // https:// URL would be silently ignored, so it is refused here instead.
  void validateForUrl(config::ValidationContext& ctx, const std::string& url) const;

  // The HTTP client's view of this block: every field, so SNI/verification name and
  // insecure_skip_verify behave as with the gRPC exporters.
  TlsClientOptions clientOptions() const {
    return TlsClientOptions{insecure, ca_file, cert_file, key_file, insecure_skip_verify, server_name_override};
  }
};

// A receiver's `tls` block. With client_ca_file set, clients must present a certificate signed by
// it (mutual TLS).
struct TlsServerConfig {
  std::string cert_file;
  std::string key_file;
  std::string client_ca_file;

  template <class V>
  void visit(V& v) {
    v.field("cert_file", cert_file, "PEM server certificate (chain)");
    v.field("key_file", key_file, "PEM server private key");
    v.field("client_ca_file", client_ca_file, "PEM CA bundle; when set, clients must present a certificate it signed");
  }
  // Both files are required and must exist.
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::net
