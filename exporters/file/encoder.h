// A file format is one small encoder behind this interface. Append formats turn one batch into one
// self-delimiting record appended to the file `path`; file-per-group formats (pprof) turn one batch
// into several whole files written into the directory `path`. Adding a format = one encoder + one row
// in encoder.cc.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/model/batch.h"
#include "core/util/status.h"

namespace proflow::exporters::file {

// One output file of a file-per-group format and the service it belongs to (used in its name).
struct EncodedGroup {
  std::string data;
  std::string service_name;  // empty when the resource has no service.name
};

class Encoder {
 public:
  virtual ~Encoder() = default;
  // Appends the record for `batch` to `out`. A non-OK status means nothing usable was appended.
  virtual Status encode(const Batch& batch, std::string& out) const = 0;
  // Suggested file extension, e.g. ".jsonl" (documentation and defaults only).
  virtual std::string_view extension() const = 0;

  // True: `path` is a directory and each batch becomes whole files (encodeGroups), not a record.
  virtual bool filePerGroup() const { return false; }
  // File-per-group formats only: one entry per output file, in request order.
  virtual Status encodeGroups(const Batch&, std::vector<EncodedGroup>*) const {
    return Status::internal("this format appends records; it has no file groups");
  }
};

struct EncoderEntry {
  std::string_view name;
  // May return nullptr when a format is known but not compiled into this build.
  std::unique_ptr<Encoder> (*make)();
};

const EncoderEntry* findEncoder(std::string_view format);
std::vector<std::string> encoderNames();
std::unique_ptr<Encoder> makeEncoder(std::string_view format);  // nullptr when unknown or unavailable

// The individual encoders (each in its own file).
std::unique_ptr<Encoder> makeOtlpProtoEncoder();
std::unique_ptr<Encoder> makeOtlpJsonEncoder();
std::unique_ptr<Encoder> makePprofEncoder();

}  // namespace proflow::exporters::file
