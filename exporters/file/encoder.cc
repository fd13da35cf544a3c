#include "exporters/file/encoder.h"

#include <array>

namespace proflow::exporters::file {
namespace {

// `json` and `proto` are the Collector file exporter's names of the same two formats (a JSON
// object per line; each message after its size as a 4-byte big-endian integer).
constexpr std::array<EncoderEntry, 5> kEncoders = {{
    {"otlp_json", &makeOtlpJsonEncoder},
    {"otlp_proto", &makeOtlpProtoEncoder},
    {"pprof", &makePprofEncoder},
    {"json", &makeOtlpJsonEncoder},
    {"proto", &makeOtlpProtoEncoder},
}};

}  // namespace

const EncoderEntry* findEncoder(std::string_view format) {
  for (const auto& e : kEncoders)
    if (e.name == format) return &e;
  return nullptr;
}

std::vector<std::string> encoderNames() {
  std::vector<std::string> out;
  for (const auto& e : kEncoders) out.emplace_back(e.name);
  return out;
}

std::unique_ptr<Encoder> makeEncoder(std::string_view format) {
  const EncoderEntry* e = findEncoder(format);
  return e ? e->make() : nullptr;
}

}  // namespace proflow::exporters::file
