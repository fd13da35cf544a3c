// The attribute reader exporters and processors share: inline and dictionary-referenced keys and
// values read the same, and only scalar values become label text.
#include <gtest/gtest.h>

#include "core/flat/flat_attributes.h"
#include "tests/support/flat_request.h"
#include "tests/support/profile_builder.h"

namespace proflow {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

flat::Batch flatOf(const otlp::Request& r) {
  flat::Batch b;
  EXPECT_TRUE(flat::fromRequest(r, &b).isOk());
  return b;
}

TEST(ProfileAttributes, ReferenceBasedAndInlineAttributesReadTheSame) {
  otlp::Request req = testing::makeRequest("shop", {testing::ProfileSpec{}});
  auto* attrs = req.mutable_resource_profiles(0)->mutable_resource()->mutable_attributes();
  auto* port = attrs->Add();
  port->set_key("port");
  port->mutable_value()->set_int_value(8080);
  auto* list = attrs->Add();  // not a scalar: no label
  list->set_key("list");
  list->mutable_value()->mutable_array_value()->add_values()->set_string_value("x");
  const Pairs want = {{"service.name", "shop"}, {"port", "8080"}};
  const flat::Batch inline_form = flatOf(req);
  EXPECT_EQ(flat::scalarKeyValues(inline_form, inline_form.resources[0].attributes), want);

  testing::referenceResourceAttributes(&req);
  const auto& refs = req.resource_profiles(0).resource().attributes();
  ASSERT_NE(refs[0].key_strindex(), 0);
  ASSERT_TRUE(refs[0].value().has_string_value_strindex());
  const flat::Batch b = flatOf(req);
  const flat::Resource& r = b.resources[0];
  EXPECT_EQ(flat::scalarKeyValues(b, r.attributes), want);
  EXPECT_EQ(flat::resourceAttribute(b, r, "service.name").value_or("<absent>"), "shop");
  EXPECT_EQ(flat::keyOf(b, b.key_values[r.attributes.begin + 1]), "port");
  EXPECT_FALSE(flat::scalarText(b, b.key_values[r.attributes.begin + 2].value).has_value());
}

TEST(ProfileAttributes, LookupGoesFromTheProfileToItsScopeAndResource) {
  otlp::Request req = testing::makeRequest("shop", {testing::ProfileSpec{}});
  auto* p = req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0);
  p->set_profile_id(std::string(15, '\0') + "\x2a");
  testing::referenceResourceAttributes(&req);
  const flat::Batch b = flatOf(req);
  const flat::ProfileRef ref{&b.resources[0], &b.scopes[0], &b.profiles[0]};
  EXPECT_EQ(flat::lookupAttribute(b, ref, "service.name").value_or("<absent>"), "shop");
  EXPECT_EQ(flat::lookupAttribute(b, ref, "profile_id").value_or("<absent>"), std::string(30, '0') + "2a");
  EXPECT_EQ(flat::lookupAttribute(b, ref, "time_unix_nano").value_or("<absent>"),
            std::to_string(p->time_unix_nano()));
  EXPECT_FALSE(flat::lookupAttribute(b, ref, "absent").has_value());
}

}  // namespace
}  // namespace proflow
