// The one attribute reader exporters share: inline and dictionary-referenced keys and values read
// the same, and only scalar values become label text.
#include <gtest/gtest.h>

#include "core/dictionary_builder.h"
#include "core/profile_attributes.h"
#include "tests/support/profile_builder.h"

namespace proflow {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

TEST(ProfileAttributes, ReferenceBasedAndInlineAttributesReadTheSame) {
  otlp::Request req = testing::makeRequest("shop", {});
  auto* attrs = req.mutable_resource_profiles(0)->mutable_resource()->mutable_attributes();
  auto* port = attrs->Add();
  port->set_key("port");
  port->mutable_value()->set_int_value(8080);
  auto* list = attrs->Add();  // not a scalar: no label
  list->set_key("list");
  list->mutable_value()->mutable_array_value()->add_values()->set_string_value("x");
  const Pairs want = {{"service.name", "shop"}, {"port", "8080"}};
  EXPECT_EQ(scalarAttributes(*attrs, req.dictionary()), want);

  testing::referenceResourceAttributes(&req);
  const auto& refs = req.resource_profiles(0).resource().attributes();
  ASSERT_NE(refs[0].key_strindex(), 0);
  ASSERT_TRUE(refs[0].value().has_string_value_strindex());
  EXPECT_EQ(scalarAttributes(refs, req.dictionary()), want);
  EXPECT_EQ(findKeyValue(refs, req.dictionary(), "service.name").value_or("<absent>"), "shop");
  EXPECT_EQ(attributeKey(refs[1], req.dictionary()), "port");
  EXPECT_FALSE(scalarText(refs[2].value(), req.dictionary()).has_value());
}

}  // namespace
}  // namespace proflow
