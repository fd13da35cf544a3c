// otlp_proto records: each ProfilesData serialized and prefixed by its size as a 4-byte big-endian
// integer (the OpenTelemetry Collector file exporter's proto format). ExportProfilesServiceRequest and
// ProfilesData are wire-identical, so the batch's request encoding is written as is.
#include <cstdint>
#include <limits>

#include "core/flat/flat_encode.h"
#include "exporters/file/encoder.h"

namespace proflow::exporters::file {
namespace {

class OtlpProtoEncoder final : public Encoder {
 public:
  Status encode(const Batch& batch, std::string& out) const override {
    const flat::Batch& data = batch.data();  // encoded straight from the flat batch
    const size_t size = flat::encodedSize(data);
    if (size > std::numeric_limits<uint32_t>::max())
      return Status::tooLarge("batch of " + std::to_string(size) + " bytes does not fit a 4-byte size prefix");
    out.reserve(out.size() + 4 + size);
    out.push_back(static_cast<char>(size >> 24));
    out.push_back(static_cast<char>(size >> 16));
    out.push_back(static_cast<char>(size >> 8));
    out.push_back(static_cast<char>(size));
    flat::encodeTo(data, &out);
    return Status::ok();
  }
  std::string_view extension() const override { return ".binpb"; }
};

}  // namespace

std::unique_ptr<Encoder> makeOtlpProtoEncoder() { return std::make_unique<OtlpProtoEncoder>(); }

}  // namespace proflow::exporters::file
