#include "exporters/file/otlp_proto_encoder.h"

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

bool decodeOtlpProtoRecords(std::string_view data, std::vector<otlp::Request>* out, std::string* error) {
  size_t pos = 0;
  while (pos < data.size()) {
    if (data.size() - pos < 4) {
      *error = "truncated size prefix at offset " + std::to_string(pos);
      return false;
    }
    const auto* p = reinterpret_cast<const uint8_t*>(data.data() + pos);
    const uint32_t size = (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
    pos += 4;
    if (data.size() - pos < size) {
      *error = "record at offset " + std::to_string(pos - 4) + " claims " + std::to_string(size) + " bytes, " +
               std::to_string(data.size() - pos) + " left";
      return false;
    }
    otlp::Request r;
    if (!r.ParseFromArray(data.data() + pos, static_cast<int>(size))) {
      *error = "record at offset " + std::to_string(pos - 4) + " is not a valid ProfilesData";
      return false;
    }
    out->push_back(std::move(r));
    pos += size;
  }
  return true;
}

}  // namespace proflow::exporters::file
