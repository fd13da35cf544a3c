#include "core/attributes/named_regex.h"

#include <gtest/gtest.h>

namespace proflow::attributes {
namespace {

using Groups = std::vector<std::pair<std::string, size_t>>;

TEST(NamedRegex, NumbersNamedGroupsAmongPlainAndNonCapturingOnes) {
  Groups g;
  std::string err;
  auto p = stripGroupNames(R"((a)(?:b)(?P<first>c)\((?<second>[(x])(?=y))", &g, &err);
  ASSERT_TRUE(p) << err;
  EXPECT_EQ(*p, R"((a)(?:b)(c)\(([(x])(?=y))");
  EXPECT_EQ(g, (Groups{{"first", 2}, {"second", 3}}));
}

TEST(NamedRegex, ExtractsWithNames) {
  std::string err;
  auto re = compileNamedRegex(R"(^/api/(?P<version>v\d+)/(?<resource>\w+)$)", &err);
  ASSERT_TRUE(re) << err;
  std::smatch m;
  std::string s = "/api/v2/users";
  ASSERT_TRUE(std::regex_search(s, m, re->re));
  ASSERT_EQ(re->groups.size(), 2u);
  EXPECT_EQ(m[re->groups[0].second].str(), "v2");
  EXPECT_EQ(m[re->groups[1].second].str(), "users");
}

TEST(NamedRegex, RejectsBadNamesDuplicatesAndBadSyntax) {
  std::string err;
  EXPECT_FALSE(compileNamedRegex("(?P<1x>a)", &err));
  EXPECT_NE(err.find("invalid group name"), std::string::npos);
  EXPECT_FALSE(compileNamedRegex("(?P<a>x)(?P<a>y)", &err));
  EXPECT_NE(err.find("used twice"), std::string::npos);
  EXPECT_FALSE(compileNamedRegex("(?P<a>x", &err));
  EXPECT_NE(err.find("invalid regular expression"), std::string::npos);
}

}  // namespace
}  // namespace proflow::attributes
