// Config of the `zpages` extension, with the Collector's keys.
//
//   extensions:
//     zpages:
//       endpoint: localhost:55679     # the Collector's default
#pragma once

#include "core/component/http_endpoint.h"

namespace proflow::extensions::zpages {

struct ZPagesConfig {
  HttpEndpointConfig server{"localhost:55679"};

  template <class V>
  void visit(V& v) {
    server.visit(v);
  }
  void validate(config::ValidationContext& ctx) const { server.validate(ctx); }
};

}  // namespace proflow::extensions::zpages
