#include "exporters/file/config.h"

#include "exporters/file/encoder.h"

namespace proflow::exporters::file {

void FileExporterConfig::validate(config::ValidationContext& ctx) const {
  if (path.empty()) ctx.error("path", "path is required: the file to write, e.g. ./data/profiles.jsonl");
  if (!findEncoder(format)) {
    std::string valid;
    for (const auto& name : encoderNames()) valid += (valid.empty() ? "" : ", ") + name;
    ctx.error("format", "unknown format '" + format + "'; valid formats: " + valid);
  } else if (!makeEncoder(format)) {
    ctx.error("format", "format '" + format + "' is not available in this build");
  }
  if (rotation && format == "pprof") {
    ctx.error("rotation", "rotation does not apply to format pprof: `path` is a directory and every profile "
                          "group is its own .pb.gz file; remove `rotation`");
  } else if (rotation && rotation->max_megabytes == 0)
    ctx.error("rotation.max_megabytes", "max_megabytes must be > 0 (omit `rotation` to disable rotation)");
}

}  // namespace proflow::exporters::file
