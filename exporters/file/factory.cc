#include "exporters/file/factory.h"

#include <stdexcept>

#include "core/component/factory_helpers.h"
#include "exporters/file/file_exporter.h"

namespace proflow::exporters::file {
namespace {

class FileExporterFactory final : public ExporterFactoryFor<FileExporterConfig> {
 public:
  std::string_view type() const override { return "file"; }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings& s, const FileExporterConfig& c) const override {
    auto encoder = makeEncoder(c.format);
    // validate() already rejected unknown formats; this only guards direct callers.
    if (!encoder) throw std::invalid_argument("file exporter: format '" + c.format + "' is not available");
    return std::make_unique<FileExporter>(s, c, std::move(encoder));
  }
};

}  // namespace

std::unique_ptr<Factory> makeFileExporterFactory() { return std::make_unique<FileExporterFactory>(); }

}  // namespace proflow::exporters::file
