#include "exporters/file/factory.h"

#include "core/factory_helpers.h"
#include "exporters/file/file_exporter.h"

namespace proflow {
namespace {

using exporters::file::FileExporterConfig;

class FileExporterFactory final : public ExporterFactoryFor<FileExporterConfig> {
 public:
  std::string_view type() const override { return "file"; }
  std::string_view description() const override {
    return "writes profiles to a local file as OTLP JSON lines or length-prefixed OTLP protobuf, with rotation";
  }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const FileExporterConfig& c) const override {
    auto encoder = exporters::file::makeEncoder(c.format);
    if (!encoder) throw std::invalid_argument("file exporter: format '" + c.format + "' is not available");
    return std::make_unique<exporters::file::FileExporter>(s, c, std::move(encoder));
  }
};

}  // namespace

std::unique_ptr<proflow::Factory> makeFileExporterFactory() { return std::make_unique<FileExporterFactory>(); }

}  // namespace proflow
