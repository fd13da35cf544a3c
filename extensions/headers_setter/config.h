// Config of the `headers_setter` extension, with the Collector's keys.
//
//   extensions:
//     headers_setter:
//       headers:
//         - key: X-Scope-OrgID            # sent lower case over gRPC
//           from_context: X-Scope-OrgID   # the request metadata a receiver kept (include_metadata)
//           default_value: anonymous      # when the data came without it (else: not set)
//           action: upsert                # insert | update | upsert (default) | delete
//         - key: X-Source
//           value: gateway-eu             # a fixed value
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/config/config_reader.h"

namespace proflow::extensions::headers_setter {

struct HeaderConfig {
  std::string key;
  std::optional<std::string> value;
  std::optional<std::string> from_context;
  std::optional<std::string> default_value;
  std::string action = "upsert";

  template <class V>
  void visit(V& v) {
    v.field("key", key, "the header to set (sent lower case over gRPC)");
    v.field("value", value, "a fixed value");
    v.field("from_context", from_context,
            "a request metadata key whose first value is sent (the receiver needs include_metadata)");
    v.field("default_value", default_value, "with from_context: sent when the data came without that key");
    v.field("action", action, "insert (only if absent), update (only if present), upsert, delete");
  }
};

struct HeadersSetterConfig {
  std::vector<HeaderConfig> headers;

  template <class V>
  void visit(V& v) {
    v.field("headers", headers, "the headers to set: [{key, value | from_context, default_value, action}]");
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::extensions::headers_setter
