// format: pprof — every profile group of a batch (what otlpToPprofBytes rebuilds as one pprof, e.g.
// all sample types that came from one pprof file) becomes one gzip-compressed .pb.gz file.
#include "core/formats/pprof/otlp_to_pprof.h"
#include "core/profile_attributes.h"
#include "exporters/file/encoder.h"

namespace proflow::exporters::file {
namespace {

std::string serviceName(const otlp::Request& request, int resource_index) {
  if (resource_index < 0 || resource_index >= request.resource_profiles_size()) return {};
  const auto& attrs = request.resource_profiles(resource_index).resource().attributes();
  return findKeyValue(attrs, request.dictionary(), "service.name").value_or("");
}

class PprofEncoder final : public Encoder {
 public:
  Status encode(const otlp::Request&, std::string&) const override {
    return Status::internal("format pprof writes one file per profile group, not records");
  }
  std::string_view extension() const override { return ".pb.gz"; }
  bool filePerGroup() const override { return true; }

  Status encodeGroups(const otlp::Request& request, std::vector<EncodedGroup>* out) const override {
    std::vector<pprof::EncodedPprof> encoded;
    if (Status s = pprof::otlpToPprofBytes(request, &encoded); !s.isOk()) return s;
    out->reserve(out->size() + encoded.size());
    for (auto& e : encoded) out->push_back({std::move(e.data), serviceName(request, e.resource_index)});
    return Status::ok();
  }
};

}  // namespace

std::unique_ptr<Encoder> makePprofEncoder() { return std::make_unique<PprofEncoder>(); }

}  // namespace proflow::exporters::file
