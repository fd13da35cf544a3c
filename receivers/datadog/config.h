// Config of the `datadog` receiver: a Datadog Agent look-alike for the tracers' profilers
// (`POST /profiling/v1/input`, `GET /info`), optionally in front of a real Agent.
//
//   receivers:
//     datadog:
//       endpoint: 127.0.0.1:8126
//       forward_to: http://datadog-agent:8126   # optional: pass every request on to the Agent
//       max_request_body_size: 32MiB
//       max_profile_size: 64MiB
#pragma once

#include <optional>
#include <string>

#include "core/config/config_reader.h"
#include "core/net/tls_config.h"
#include "core/receiverhelper/http_listener.h"

namespace proflow::receivers::datadog {

// endpoint, tls, auth, body (as sent and after Content-Encoding; the Agent takes 25 MB traces) and
// server limits: core/receiverhelper/http_listener.h.
struct DatadogReceiverConfig : receiverhelper::HttpListenerConfig {
  DatadogReceiverConfig() { endpoint = "127.0.0.1:8126"; }  // the Agent's trace port
  // One attachment after its own gzip/zstd.
  config::ByteSize max_profile_size = config::ByteSize(64ull << 20);
  int max_concurrent_requests = 64;  // profile uploads decoded at once; more get 429 + Retry-After
  // JFR attachments: true keeps lambda, proxy and accessor class names with the numbers of their run.
  bool keep_generated_names = false;

  // Forwarding to a real Agent ("" = answer the Agent's API here and drop non-profile payloads).
  std::string forward_to;
  config::Duration forward_timeout = std::chrono::seconds(10);  // one forwarded exchange, connect included
  int max_concurrent_forwards = 64;  // forwarded requests waiting or in progress; more get 503
  int forward_workers = 4;           // threads blocking on the Agent (a slow Agent holds at most these)
  config::ByteSize max_forward_response_size = config::ByteSize(8ull << 20);
  net::TlsClientConfig forward_tls;  // for an https:// forward_to

  template <class V>
  void visit(V& v) {
    visitListener(v, "host:port to listen on (the Agent's 8126 by default)");
    visitIncludeMetadata(v);
    v.field("max_profile_size", max_profile_size, "largest attachment accepted after its own gzip/zstd");
    v.field("max_concurrent_requests", max_concurrent_requests, "profile uploads decoded at once; more get 429");
    v.field("keep_generated_names", keep_generated_names,
            "JFR attachments: keep JVM-generated class names as recorded (default: merged, core/formats/jfr)");
    v.field("forward_to", forward_to, "URL of a real Datadog Agent that receives every request unchanged");
    v.field("forward_timeout", forward_timeout, "time for one forwarded request and its answer (504 after)");
    v.field("max_concurrent_forwards", max_concurrent_forwards, "forwarded requests at once; more get 503");
    v.field("forward_workers", forward_workers, "threads sending to the Agent");
    v.field("max_forward_response_size", max_forward_response_size, "largest Agent answer relayed (502 above)");
    v.field("forward_tls", forward_tls, "TLS client settings for an https:// forward_to");
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::receivers::datadog
