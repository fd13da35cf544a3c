// Media types and request targets as RFC 9110 / 9112 define them.
#include "core/net/http_syntax.h"

#include <gtest/gtest.h>

namespace proflow::net {
namespace {

TEST(IsMediaType, ComparesTypeAndSubtypeWithoutCaseOrParameters) {
  EXPECT_TRUE(isMediaType("application/json", "application/json"));
  EXPECT_TRUE(isMediaType("Application/JSON; charset=utf-8", "application/json"));
  EXPECT_TRUE(isMediaType(" application/x-protobuf ;proto=x", "application/x-protobuf"));
  EXPECT_FALSE(isMediaType("application/jsonx", "application/json"));
  EXPECT_FALSE(isMediaType("text/json", "application/json"));
  EXPECT_FALSE(isMediaType("", "application/json"));
}

TEST(OriginForm, AbsoluteTargetsAreRoutedOnTheirPathAndQuery) {
  EXPECT_EQ(originForm("/v1development/profiles?x=1"), "/v1development/profiles?x=1");
  EXPECT_EQ(originForm("http://127.0.0.1:4318/v1development/profiles"), "/v1development/profiles");
  EXPECT_EQ(originForm("HTTPS://gateway.example/ingest?name=a"), "/ingest?name=a");
  EXPECT_EQ(originForm("http://[::1]:4318?name=a"), "/?name=a");
  EXPECT_EQ(originForm("http://host"), "/");
  EXPECT_EQ(originForm("*"), "*");                  // asterisk form (OPTIONS) is left alone
  EXPECT_EQ(originForm("1http://x/y"), "1http://x/y");  // not a scheme: left for routing to refuse
}

}  // namespace
}  // namespace proflow::net
