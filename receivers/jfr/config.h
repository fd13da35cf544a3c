// Config of the `jfr` receiver: Java Flight Recorder recordings over HTTP and from a directory.
//
//   receivers:
//     jfr:
//       endpoint: 127.0.0.1:4041          # POST /v1/jfr; "" turns HTTP off
//       attributes: { service.name: checkout }
//       directory:
//         path: /recordings               # a JVM started with -XX:StartFlightRecording:filename=/recordings/...
//         after: move                     # delete | move
//         move_to: /recordings/done
#pragma once

#include <map>
#include <optional>
#include <string>

#include "core/config/config_reader.h"
#include "core/receiverhelper/directory_watcher.h"
#include "core/receiverhelper/http_listener.h"

namespace proflow::receivers::jfr {

// The directory mode's keys (core/receiverhelper/directory_watcher.h), with the suffix of JFR recordings.
struct DirectoryConfig : DirectoryWatchConfig {
  DirectoryConfig() { suffix = ".jfr"; }
};

// endpoint, tls, auth, body and server limits: core/receiverhelper/http_listener.h.
struct JfrReceiverConfig : receiverhelper::HttpListenerConfig {
  JfrReceiverConfig() {
    endpoint = "127.0.0.1:4041";
    max_request_body_size = config::ByteSize(256ull << 20);
  }
  std::map<std::string, std::string> attributes;  // resource attributes added to every recording
  bool keep_original_payload = false;
  // true: lambda, proxy and accessor class names keep the numbers the JVM gave them this run.
  bool keep_generated_names = false;
  std::optional<DirectoryConfig> directory;

  template <class V>
  void visit(V& v) {
    visitListener(v, "host:port for POST /v1/jfr; empty disables HTTP");
    v.field("attributes", attributes, "resource attributes added to every recording");
    v.field("keep_original_payload", keep_original_payload, "keep the JFR bytes in Profile.original_payload");
    v.field("keep_generated_names", keep_generated_names,
            "keep JVM-generated class names as recorded (default: merged, core/formats/jfr)");
    v.field("directory", directory, "pick up finished recordings from a directory");
  }
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::receivers::jfr
