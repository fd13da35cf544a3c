// Config decoding and validation of the compress processor.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/config/config_loader.h"
#include "processors/compress/factory.h"
#include "tests/support/component_config.h"

namespace proflow::processors::compress {
namespace {

using ::testing::HasSubstr;

std::string errorsOf(const std::string& yaml) {
  return ::proflow::testing::checkComponentConfig(*makeCompressProcessorFactory(), yaml, "processors.compress").format();
}

TEST(CompressConfig, ValidAndInvalidValues) {
  EXPECT_EQ(errorsOf(""), "");
  EXPECT_EQ(errorsOf("max_stack_depth: 64\nmin_fraction: 0.005\nmax_nodes: 500\n"), "");
  EXPECT_THAT(errorsOf("max_stack_depth: 1\n"), HasSubstr("t.yaml:1:1"));
  EXPECT_THAT(errorsOf("max_stack_depth: 1\n"), HasSubstr("max_stack_depth must be 0 (off) or >= 2"));
  EXPECT_THAT(errorsOf("merge_samples: true\nmin_fraction: 1.5\n"), HasSubstr("t.yaml:2:1"));
  EXPECT_THAT(errorsOf("min_fraction: -0.1\n"), HasSubstr("min_fraction must be within [0, 1)"));
  EXPECT_THAT(errorsOf("max_nodes: -3\n"), HasSubstr("expected an integer >= 0"));
  EXPECT_THAT(errorsOf("max_depth: 3\n"), HasSubstr("unknown key 'max_depth'"));
}

}  // namespace
}  // namespace proflow::processors::compress
