// Config of the `folded` receiver: folded ("collapsed") stack text over HTTP.
//
//   receivers:
//     folded:
//       endpoint: 127.0.0.1:4043     # POST /v1/folded
//       attributes: { service.name: batch-job }
//       sample_type: cpu
//       sample_unit: nanoseconds
//       period: 10000000             # each counted sample is 10 ms of CPU
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/config/config_reader.h"
#include "core/receiverhelper/http_listener.h"

namespace proflow::receivers::folded {

// endpoint, tls, auth, body and server limits: core/receiverhelper/http_listener.h.
struct FoldedReceiverConfig : receiverhelper::HttpListenerConfig {
  FoldedReceiverConfig() { endpoint = "127.0.0.1:4043"; }
  std::map<std::string, std::string> attributes;  // resource attributes of every profile
  // What the counts mean, unless a request says otherwise (?sample_type=&sample_unit=&period=).
  std::string sample_type = "samples";
  std::string sample_unit = "count";
  int64_t period = 0;  // > 0: counts are samples of this many sample_unit each, values = count * period

  template <class V>
  void visit(V& v) {
    visitListener(v, "host:port for POST /v1/folded");
    visitIncludeMetadata(v);
    v.field("attributes", attributes, "resource attributes added to every profile");
    v.field("sample_type", sample_type, "sample type of the counts (cpu, wall, alloc_objects, ...)");
    v.field("sample_unit", sample_unit, "unit of the values (count, nanoseconds, bytes, ...)");
    v.field("period", period, "value of one counted sample in sample_unit; 0 = counts are the values");
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::receivers::folded
