#include "core/formats/otlp_json/otlp_json.h"
#include "exporters/file/encoder.h"

namespace proflow::exporters::file {
namespace {

// One ProfilesData object per line (JSON Lines). The request has the same JSON field names as
// ProfilesData (resourceProfiles, dictionary), so it is encoded directly.
class OtlpJsonEncoder final : public Encoder {
 public:
  Status encode(const Batch& batch, std::string& out) const override {
    std::string json = otlp_json::encode(batch.data());  // straight from the flat batch
    // Compact printing never emits a raw newline (strings escape it); checked because a stray one
    // would split a record in two for every reader.
    if (json.find('\n') != std::string::npos)
      return Status::internal("OTLP JSON encoder produced a multi-line document");
    out += json;
    out.push_back('\n');
    return Status::ok();
  }
  std::string_view extension() const override { return ".jsonl"; }
};

}  // namespace

std::unique_ptr<Encoder> makeOtlpJsonEncoder() { return std::make_unique<OtlpJsonEncoder>(); }

}  // namespace proflow::exporters::file
