// Flat batch -> Datadog profile uploads (event version 4), as pure functions so tests can check them.
//
// One upload per resource (a service instance) and attachment name: every pprof rebuilt from the
// resource's profiles (core/formats/pprof flat_to_pprof, gzip) is an attachment named as the Datadog profilers name
// theirs — Go: cpu.pprof, delta-heap.pprof, delta-mutex.pprof, delta-block.pprof, goroutines.pprof
// (OTLP profiles are deltas); other runtimes: profile.pprof. The event part carries
//   family         from process.runtime.name / telemetry.sdk.language (go, java, python, ruby, php,
//                  dotnet, nodejs), else "native"
//   start, end     RFC 3339 with nanoseconds, from the profiles' time and duration
//   tags_profiler  service, env (deployment.environment[.name]), version (service.version), host
//                  (host.name), runtime, plus configured tags
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/flat/flat_batch.h"
#include "core/util/status.h"

namespace proflow::exporters::datadog {

struct Attachment {
  std::string name;  // part name and file name
  std::string data;  // gzip pprof
};

struct Upload {
  std::string event_json;
  std::vector<Attachment> attachments;
};

Status buildUploads(const flat::Batch& batch, const std::map<std::string, std::string>& extra_tags,
                    std::vector<Upload>* out);

// multipart/form-data body: the event part, then one file part per attachment. Returns the
// Content-Type (with the boundary) in `content_type`.
std::string encodeMultipart(const Upload& upload, std::string* content_type);

}  // namespace proflow::exporters::datadog
