// Configuration of the `file` exporter.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "core/config/config_reader.h"

namespace proflow::exporters::file {

// Size-based rotation, named like the OpenTelemetry Collector's file exporter: the current file keeps
// `path`; rotated files get a UTC timestamp before the extension (profiles-2026-01-02T15-04-05.000.jsonl).
struct RotationConfig {
  uint32_t max_megabytes = 100;
  uint32_t max_backups = 100;

  template <class V>
  void visit(V& v) {
    v.field("max_megabytes", max_megabytes, "rotate when the current file would grow past this size (MiB)");
    v.field("max_backups", max_backups, "rotated files to keep, oldest removed first; 0 keeps all");
  }
};

struct FileExporterConfig {
  std::string path;
  std::string format = "otlp_json";
  std::optional<RotationConfig> rotation;  // absent: the file grows without bound
  config::Duration flush_interval = std::chrono::seconds(1);

  template <class V>
  void visit(V& v) {
    v.field("path", path, "file to write (format pprof: directory to write .pb.gz files into); directories are created");
    v.field("format", format, "otlp_json or json (one ProfilesData per line), otlp_proto or proto (4-byte big-endian size + message) or "
            "pprof (one gzip .pb.gz file per profile group in the directory `path`)");
    v.field("rotation", rotation, "size-based rotation: {max_megabytes, max_backups}; not with format pprof");
    v.field("flush_interval", flush_interval, "how often written data is forced to disk (fdatasync); 0 = every write");
  }

  // No I/O here: `proflow validate` must work on a machine without the target directory.
  void validate(config::ValidationContext& ctx) const;
};

}  // namespace proflow::exporters::file
