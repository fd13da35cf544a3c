// The receiver's YAML: defaults, every key, and validation errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/config/config_loader.h"
#include "receivers/pyroscope/config.h"
#include "receivers/pyroscope/factory.h"
#include "tests/support/component_config.h"

namespace proflow::receivers::pyroscope {
namespace {

using ::testing::HasSubstr;

config::ConfigErrors validateYaml(const std::string& yaml, PyroscopeReceiverConfig* out = nullptr) {
  return ::proflow::testing::checkComponentConfig(*makePyroscopeReceiverFactory(), yaml, "receivers.pyroscope", out, "test.yaml");
}

TEST(PyroscopeReceiverConfigTest, DefaultsListenOnPyroscopesPort) {
  PyroscopeReceiverConfig c;
  EXPECT_EQ(validateYaml("", &c).size(), 0u);
  EXPECT_EQ(c.endpoint, "127.0.0.1:4040");
  EXPECT_EQ(c.max_concurrent_requests, 64);
  EXPECT_EQ(validateYaml("endpoint: 0.0.0.0:4041\nmax_request_body_size: 8MiB\nmax_profile_size: 16MiB\n"
                         "max_inflate_ratio: 50\nmax_concurrent_requests: 4\n",
                         &c)
                .size(),
            0u);
  EXPECT_EQ(c.max_request_body_size.bytes, 8u << 20);
  EXPECT_EQ(c.max_profile_size.bytes, 16u << 20);
  EXPECT_EQ(c.max_concurrent_requests, 4);
}

TEST(PyroscopeReceiverConfigTest, ReportsEveryProblem) {
  auto errors = validateYaml("endpoint: 'no port'\nmax_inflate_ratio: 0.5\nmax_concurrent_requests: 0\nmax_profil: 1\n");
  const std::string text = errors.format();
  EXPECT_THAT(text, HasSubstr("endpoint"));
  EXPECT_THAT(text, HasSubstr("max_inflate_ratio"));
  EXPECT_THAT(text, HasSubstr("max_concurrent_requests"));
  EXPECT_THAT(text, HasSubstr("unknown key 'max_profil'"));
  EXPECT_EQ(errors.size(), 4u) << text;
}

}  // namespace
}  // namespace proflow::receivers::pyroscope
