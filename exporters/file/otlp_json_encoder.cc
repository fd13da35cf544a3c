#include "exporters/file/encoder.h"

#ifdef PROFLOW_HAVE_OTLP_JSON
#include "core/formats/otlp_json/otlp_json.h"
#endif

namespace proflow::exporters::file {

#ifdef PROFLOW_HAVE_OTLP_JSON
namespace {

// One ProfilesData object per line (JSON Lines). The request has the same JSON field names as
// ProfilesData (resourceProfiles, dictionary), so it is encoded directly.
class OtlpJsonEncoder final : public Encoder {
 public:
  Status encode(const otlp::Request& request, std::string& out) const override {
    std::string json = formats::toOtlpJson(request);
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
#else
std::unique_ptr<Encoder> makeOtlpJsonEncoder() { return nullptr; }
#endif

}  // namespace proflow::exporters::file
