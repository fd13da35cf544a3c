// How a resource/scope attribute list is read when a sender breaks OTLP's rules (a key given both
// inline and by key_strindex, a key given twice): one rule, the same for every reader.
#include <gtest/gtest.h>

#include "core/flat/flat_attributes.h"
#include "tests/support/flat_request.h"
#include "tests/support/profile_builder.h"
#include "tests/support/rule_breaking_attributes.h"

namespace proflow::flat {
namespace {

// service.name=svc, then tenant=first, tenant=second, zone/region=eu.
Batch rulebreaking() {
  otlp::Request req = ::proflow::testing::makeRequest("svc", {::proflow::testing::makeProfile(1)});
  ::proflow::testing::addRuleBreakingAttributes(&req);
  return ::proflow::testing::batchOf(req).data();
}

TEST(AttributeRule, KeyStrindexWinsOverAnInlineKeyAndTheFirstOfARepeatedKeyWins) {
  const Batch b = rulebreaking();
  ASSERT_EQ(b.resources.size(), 1u);
  const Range attrs = b.resources[0].attributes;
  std::vector<std::pair<std::string, std::string>> seen;
  forEachKeyValue(b, attrs, [&](std::string_view key, const KeyValue& kv) {
    seen.emplace_back(std::string(key), valueText(b, kv.value));
  });
  const std::vector<std::pair<std::string, std::string>> want = {
      {"service.name", "svc"}, {"tenant", "first"}, {"region", "eu"}};
  EXPECT_EQ(seen, want);
  EXPECT_EQ(scalarKeyValues(b, attrs), want);
  EXPECT_EQ(resourceAttribute(b, b.resources[0], "tenant"), "first");
  EXPECT_EQ(resourceAttribute(b, b.resources[0], "region"), "eu");
  EXPECT_EQ(resourceAttribute(b, b.resources[0], "zone"), std::nullopt);
}

TEST(AttributeRule, ReplacingAKeyReplacesTheAttributeReadersSee) {
  otlp::Request req = ::proflow::testing::makeRequest("svc", {::proflow::testing::makeProfile(1)});
  ::proflow::testing::referenceResourceAttributes(&req);  // service.name by key_strindex only
  Batch b = ::proflow::testing::batchOf(req).data();
  addResourceAttribute(b, 0, "service.name", "renamed", /*replace=*/true);
  EXPECT_EQ(b.resources[0].attributes.size, 1u);
  EXPECT_EQ(resourceAttribute(b, b.resources[0], "service.name"), "renamed");
}

}  // namespace
}  // namespace proflow::flat
