// Config of the `pyroscope` receiver: Pyroscope-compatible `POST /ingest` (and `/pyroscope/ingest`),
// so Pyroscope SDKs can point at proflow unchanged.
//
//   receivers:
//     pyroscope:
//       endpoint: 127.0.0.1:4040
//       max_request_body_size: 32MiB
//       max_profile_size: 64MiB
//       max_inflate_ratio: 100
//       max_concurrent_requests: 64
#pragma once

#include <optional>
#include <string>

#include "core/config/config_reader.h"
#include "core/receiverhelper/http_listener.h"

namespace proflow::receivers::pyroscope {

// endpoint, tls, auth, body (as sent and after Content-Encoding) and server limits:
// core/receiverhelper/http_listener.h.
struct PyroscopeReceiverConfig : receiverhelper::HttpListenerConfig {
  PyroscopeReceiverConfig() { endpoint = "127.0.0.1:4040"; }  // Pyroscope's own port
  // A profile (or multipart part) after decompressing gzip/zstd inside the body.
  config::ByteSize max_profile_size = config::ByteSize(64ull << 20);
  int max_concurrent_requests = 64;  // decoded at once; more are answered 429 + Retry-After
  // format=jfr: true keeps lambda, proxy and accessor class names with the numbers of their run.
  bool keep_generated_names = false;

  template <class V>
  void visit(V& v) {
    visitListener(v, "host:port to listen on");
    visitIncludeMetadata(v);
    v.field("max_profile_size", max_profile_size, "largest profile accepted after decompressing gzip pprof");
    v.field("max_concurrent_requests", max_concurrent_requests, "requests converted at once; more get 429");
    v.field("keep_generated_names", keep_generated_names,
            "JFR uploads: keep JVM-generated class names as recorded (default: merged, core/formats/jfr)");
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::receivers::pyroscope
