// The `example` exporter: what a component needs and nothing more.
#pragma once

#include <atomic>

#include "core/component/factory.h"
#include "tests/support/components/example/config.h"

namespace proflow::testing::example {

class ExampleExporter final : public Exporter {
 public:
  explicit ExampleExporter(ExampleExporterConfig config) : config_(config) {}
  Status start(Host&) override { return Status::ok(); }
  void shutdown(Deadline) override {}
  Status consume(Batch batch) override;
  int64_t profiles() const { return profiles_.load(); }

 private:
  ExampleExporterConfig config_;
  std::atomic<int64_t> profiles_{0};
};

}  // namespace proflow::testing::example
