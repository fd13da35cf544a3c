// The `tls` block shared by every client (exporters, scrapers), in the Collector's shape:
//   tls: { insecure: false, ca_file: ca.pem, cert_file: client.pem, key_file: client.key,
//          insecure_skip_verify: false, server_name_override: "" }
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

  // The HTTP client's view of this block.
  TlsClientOptions clientOptions() const {
    return TlsClientOptions{insecure, ca_file, cert_file, key_file, insecure_skip_verify};
  }
};

}  // namespace proflow::net
