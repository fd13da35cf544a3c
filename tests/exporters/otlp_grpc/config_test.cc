// Validation of the otlp_grpc exporter's own keys, one component decoded over its factory's defaults.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "exporters/otlp_grpc/config.h"
#include "exporters/otlp_grpc/factory.h"
#include "tests/support/component_config.h"

namespace proflow::exporters::otlp {
namespace {

using ::testing::HasSubstr;

config::ConfigErrors validateYaml(const std::string& yaml, OtlpExporterConfig* out = nullptr) {
  return ::proflow::testing::checkComponentConfig(*makeOtlpExporterFactory(), yaml, "exporters.otlp", out, "test.yaml");
}

TEST(OtlpExporterConfigTest, FullExampleDecodes) {
  OtlpExporterConfig c;
  auto errors = validateYaml(R"(
endpoint: gateway.internal:4317
compression: none
headers: { x-scope-orgid: tenant-1 }
tls: { insecure: true }
max_request_size: 1MiB
timeout: 2s
)",
                             &c);
  EXPECT_TRUE(errors.empty()) << errors.format();
  EXPECT_EQ(c.endpoint, "gateway.internal:4317");
  EXPECT_EQ(c.compression, "none");
  EXPECT_EQ(c.headers.at("x-scope-orgid"), "tenant-1");
  EXPECT_EQ(c.max_request_size.bytes, 1u << 20);
}

TEST(OtlpExporterConfigTest, ReportsEveryProblemWithItsLine) {
  // No endpoint, an unknown compression and a metadata key gRPC cannot carry: all three in one
  // listing, the compression error pointing at its own line. A key in capitals is fine (sent lower case).
  auto errors = validateYaml("tls: { insecure: true }\ncompression: zstd\nheaders: { X-Tenant: a, \"a b\": c }\n");
  const std::string text = errors.format();
  EXPECT_THAT(text, HasSubstr("exporters.otlp.endpoint: required"));
  EXPECT_THAT(text, HasSubstr("test.yaml:2:1: exporters.otlp.compression: unknown compression 'zstd'; valid: gzip, none"));
  EXPECT_THAT(text, HasSubstr("'a b' is not a valid gRPC metadata key"));
  EXPECT_THAT(text, ::testing::Not(HasSubstr("X-Tenant")));
  EXPECT_EQ(errors.size(), 3u) << text;
}

}  // namespace
}  // namespace proflow::exporters::otlp
