#include "tests/support/components/example/factory.h"

#include "core/component/factory_helpers.h"
#include "tests/support/components/example/example_exporter.h"

namespace proflow::testing::example {
namespace {

class ExampleExporterFactory final : public ExporterFactoryFor<ExampleExporterConfig> {
 public:
  std::string_view type() const override { return "example"; }

 protected:
  std::unique_ptr<Exporter> createExporter(const CreateSettings&, const ExampleExporterConfig& c) const override {
    return std::make_unique<ExampleExporter>(c);
  }
};

}  // namespace

std::unique_ptr<Factory> makeExampleExporterFactory() { return std::make_unique<ExampleExporterFactory>(); }

}  // namespace proflow::testing::example
