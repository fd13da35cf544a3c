// format: pprof — every profile group of a batch (what otlpToPprofBytes rebuilds as one pprof, e.g.
// all sample types that came from one pprof file) becomes one gzip-compressed .pb.gz file.
#include "core/flat/flat_attributes.h"
#include "core/formats/pprof/flat_to_pprof.h"
#include "exporters/file/encoder.h"

namespace proflow::exporters::file {
namespace {

std::string serviceName(const flat::Batch& b, int resource_index) {
  if (resource_index < 0 || static_cast<size_t>(resource_index) >= b.resources.size()) return {};
  return flat::resourceAttribute(b, b.resources[static_cast<size_t>(resource_index)], "service.name").value_or("");
}

class PprofEncoder final : public Encoder {
 public:
  Status encode(const Batch&, std::string&) const override {
    return Status::internal("format pprof writes one file per profile group, not records");
  }
  std::string_view extension() const override { return ".pb.gz"; }
  bool filePerGroup() const override { return true; }

  // Straight from the flat batch (flat_to_pprof), no protobuf request in between.
  Status encodeGroups(const Batch& batch, std::vector<EncodedGroup>* out) const override {
    const flat::Batch& data = batch.data();
    std::vector<pprof::EncodedPprof> encoded;
    if (Status s = pprof::flatToPprofBytes(data, &encoded); !s.isOk()) return s;
    out->reserve(out->size() + encoded.size());
    for (auto& e : encoded) out->push_back({std::move(e.data), serviceName(data, e.resource_index)});
    return Status::ok();
  }
};

}  // namespace

std::unique_ptr<Encoder> makePprofEncoder() { return std::make_unique<PprofEncoder>(); }

}  // namespace proflow::exporters::file
