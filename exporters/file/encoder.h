// A file format is one small encoder behind this interface: it turns one batch into one
// self-delimiting record appended to the file. Adding a format = one encoder + one row in encoder.cc.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/otlp_types.h"
#include "core/status.h"

namespace proflow::exporters::file {

class Encoder {
 public:
  virtual ~Encoder() = default;
  // Appends the record for `request` to `out`. A non-OK status means nothing usable was appended.
  virtual Status encode(const otlp::Request& request, std::string& out) const = 0;
  // Suggested file extension, e.g. ".jsonl" (documentation and defaults only).
  virtual std::string_view extension() const = 0;
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

}  // namespace proflow::exporters::file
