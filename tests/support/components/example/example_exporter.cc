#include "tests/support/components/example/example_exporter.h"

namespace proflow::testing::example {

Status ExampleExporter::consume(Batch batch) {
  const auto n = static_cast<int64_t>(batch.counts().profiles);
  if (config_.limit > 0 && profiles_.load() + n > config_.limit)
    return Status::exhausted("example exporter: limit of " + std::to_string(config_.limit) + " profiles reached");
  profiles_ += n;
  return Status::ok();
}

}  // namespace proflow::testing::example
