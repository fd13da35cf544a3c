// Config of the `perf` receiver: Linux perf recordings (perf.data or `perf script` text) over HTTP
// and from a directory.
//
//   receivers:
//     perf:
//       endpoint: 127.0.0.1:4044          # POST /v1/perf; "" turns HTTP off
//       attributes: { service.name: checkout }
//       directory:
//         path: /recordings               # perf record -o /recordings/app-$(date +%s).data ...
//         after: move                     # delete | move
//         move_to: /recordings/done
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/config/config_reader.h"
#include "core/receiverhelper/directory_watcher.h"
#include "core/receiverhelper/http_listener.h"

namespace proflow::receivers::perf {

// The directory mode's keys (core/receiverhelper/directory_watcher.h), with the suffix perf record's files get.
struct DirectoryConfig : DirectoryWatchConfig {
  DirectoryConfig() { suffix = ".data"; }
};

// endpoint, tls, auth, body and server limits: core/receiverhelper/http_listener.h.
struct PerfReceiverConfig : receiverhelper::HttpListenerConfig {
  PerfReceiverConfig() {
    endpoint = "127.0.0.1:4044";
    max_request_body_size = config::ByteSize(256ull << 20);
  }
  std::map<std::string, std::string> attributes;  // resource attributes added to every recording
  bool keep_original_payload = false;
  uint32_t max_stack_depth = 4096;
  uint64_t max_samples = 50'000'000;
  std::optional<DirectoryConfig> directory;

  template <class V>
  void visit(V& v) {
    visitListener(v, "host:port for POST /v1/perf; empty disables HTTP");
    v.field("attributes", attributes, "resource attributes added to every recording");
    v.field("keep_original_payload", keep_original_payload, "keep the recording in Profile.original_payload");
    v.field("max_stack_depth", max_stack_depth, "deepest callchain accepted (frames); deeper refuses the recording");
    v.field("max_samples", max_samples, "most sample records in one recording");
    v.field("directory", directory, "pick up finished recordings from a directory");
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::receivers::perf
