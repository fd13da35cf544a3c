// Pyroscope's LabelsSnapshot protobuf (the `labels` part of a JFR upload), decoded by hand in the JFR
// library: contextId -> label pairs.
#include <string_view>

#include "core/formats/jfr/context_labels.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  proflow::jfr::ContextLabels labels;
  std::string error;
  if (!labels.parse(std::string_view(reinterpret_cast<const char*>(data), size), &error)) {
    FUZZ_CHECK(!error.empty(), "refused without a reason");
    return 0;
  }
  FUZZ_CHECK(labels.find(0) == nullptr, "context 0 means no context");
  return 0;
}
