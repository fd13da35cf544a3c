// The limits every receiver listener shares, read from the receiver's own config block (the keys sit
// next to `endpoint`):
//
//   receivers:
//     pprof:
//       endpoint: 0.0.0.0:4042
//       max_in_flight_bytes: 512MiB     # bodies admitted and not yet answered (read, queued, decoding)
//       max_connections: 4096           # at the cap the longest-waiting idle connection is closed
//       read_header_timeout: 60s        # request header, keep-alive idle time included
//       read_body_idle_timeout: 60s     # longest silence while a body is read
//       read_body_timeout: 5m           # whole body, however steadily it trickles
//
// Beyond max_in_flight_bytes a request is answered 429 + Retry-After (gRPC: RESOURCE_EXHAUSTED):
// before its body is read when the declared size does not fit beside what is held, else as soon as
// its body, claimed as it arrives, does not fit. A request that alone needs more than the budget
// gets 413.
#pragma once

#include <chrono>
#include <memory>

#include "core/config/config_reader.h"
#include "core/net/http_server.h"
#include "core/net/in_flight_budget.h"

namespace proflow::net {

struct ServerLimitsConfig {
  // 512 MiB: what one maximum-size (64 MiB) pprof holds while it converts (body, inflated pprof
  // and the OTLP request: about 5x), or hundreds of typical agent uploads (tens of KiB to a few
  // MiB) at once. Sidecars that only see small profiles can lower it.
  config::ByteSize max_in_flight_bytes = config::ByteSize(512ull << 20);
  int max_connections = 4096;
  config::Duration read_header_timeout = std::chrono::seconds(60);
  config::Duration read_body_idle_timeout = std::chrono::seconds(60);
  config::Duration read_body_timeout = std::chrono::minutes(5);

  template <class V>
  void visit(V& v) {
    v.field("max_in_flight_bytes", max_in_flight_bytes,
            "bytes of requests admitted and not yet answered; beyond it 429 / RESOURCE_EXHAUSTED (0 = unlimited)");
    v.field("max_connections", max_connections,
            "open connections; at the cap the connection idle longest is closed for the new one");
    v.field("read_header_timeout", read_header_timeout, "time to receive a request header, keep-alive idle included");
    v.field("read_body_idle_timeout", read_body_idle_timeout, "longest silence while a body is read (0 = none)");
    v.field("read_body_timeout", read_body_timeout, "time to receive a whole body (0 = none)");
  }
  // `max_request_body` is the receiver's own body limit: the budget must hold at least one such body.
  void validate(config::ValidationContext& ctx, uint64_t max_request_body) const;

  // Copies the timeouts and the connection cap into `opts` and sets its in-flight budget.
  void apply(std::shared_ptr<InFlightBudget> budget, HttpServerOptions* opts) const;
  std::shared_ptr<InFlightBudget> makeBudget() const;
};

}  // namespace proflow::net
