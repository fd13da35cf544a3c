#include "core/attributes/named_regex.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

namespace proflow::attributes {
namespace {

using ::testing::HasSubstr;
using Groups = std::vector<std::pair<std::string, int>>;

std::map<std::string, std::string> extract(const NamedRegex& re, const std::string& text) {
  std::map<std::string, std::string> out;
  auto captures = searchNamed(re, text);
  if (captures)
    for (const auto& c : *captures) out.emplace(c.name, c.value);
  return out;
}

TEST(NamedRegex, RewritesOnlyTheAngleBracketNamedGroups) {
  EXPECT_EQ(toRe2Syntax(R"((a)(?:b)(?P<first>c)\((?<second>[(?<x])(?<=y)(?<!z))"),
            R"((a)(?:b)(?P<first>c)\((?P<second>[(?<x])(?<=y)(?<!z))");
  // "]" first in a class is a literal; an escaped "(" opens no group.
  EXPECT_EQ(toRe2Syntax(R"([]a(?<n>]\(?<m>x)((?<k>y))"), R"([]a(?<n>]\(?<m>x)((?P<k>y))");
}

TEST(NamedRegex, NumbersNamedGroupsAmongPlainAndNonCapturingOnes) {
  std::string err;
  auto re = compileNamedRegex(R"((a)(?:b)(?P<first>c)\((?<second>[(x]))", &err);
  ASSERT_TRUE(re) << err;
  EXPECT_EQ(re->groups, (Groups{{"first", 2}, {"second", 3}}));
}

TEST(NamedRegex, ExtractsWithBothNameSpellings) {
  std::string err;
  auto re = compileNamedRegex(R"(^/api/(?P<version>v\d+)/(?<resource>\w+)(?:/(?P<id>\d+))?$)", &err);
  ASSERT_TRUE(re) << err;
  EXPECT_EQ(extract(*re, "/api/v2/users"), (std::map<std::string, std::string>{{"resource", "users"}, {"version", "v2"}}));
  EXPECT_EQ(extract(*re, "/api/v2/users/7").at("id"), "7");
  EXPECT_FALSE(searchNamed(*re, "/health"));
}

TEST(NamedRegex, RejectsBadNamesDuplicatesAndWhatRe2DoesNotTake) {
  std::string err;
  EXPECT_FALSE(compileNamedRegex("(?P<1x>a)", &err));
  EXPECT_THAT(err, HasSubstr("invalid group name '1x'"));
  EXPECT_FALSE(compileNamedRegex("(?P<a.b>x)", &err));
  EXPECT_FALSE(compileNamedRegex("(?<a>x)(?P<a>y)", &err));
  EXPECT_THAT(err, HasSubstr("group name 'a' used twice"));
  EXPECT_FALSE(compileNamedRegex("(?P<a>x", &err));
  EXPECT_THAT(err, HasSubstr("invalid regex '(?P<a>x' (RE2 syntax): missing )"));
  // Backtracking-only features are refused at config time, not at run time.
  EXPECT_FALSE(compileRegex(R"((a)\1)", &err));
  EXPECT_FALSE(compileRegex("a(?=b)", &err));
  EXPECT_FALSE(compileRegex("(?<=a)b", &err));
}

TEST(NamedRegex, ErrorQuotesAShortPrefixOfAHugePattern) {
  std::string err;
  std::string huge = "(" + std::string(1 << 20, 'a');
  EXPECT_FALSE(compileRegex(huge, &err));
  EXPECT_LT(err.size(), 400u) << err.substr(0, 400);
  EXPECT_THAT(err, HasSubstr("(1048577 bytes)"));
}

// The patterns of the attributes and resource READMEs over values long enough to overflow the stack
// of a recursive (backtracking) matcher.
TEST(NamedRegex, ReadmePatternsOnMegabyteValues) {
  std::string err;
  auto pool = compileNamedRegex(R"(^(?P<pool>[a-z-]+)-\d+$)", &err);
  auto node = compileNamedRegex(R"(^(?P<cluster>[a-z]+)-node-(?P<node_index>\d+)$)", &err);
  ASSERT_TRUE(pool && node) << err;
  for (size_t n : {size_t{50'000}, size_t{1} << 20}) {
    const std::string name(n, 'p');
    EXPECT_EQ(extract(*pool, name + "-42").at("pool"), name);
    auto got = extract(*node, name + "-node-" + std::string(n, '7'));
    EXPECT_EQ(got.at("cluster"), name);
    EXPECT_EQ(got.at("node_index").size(), n);
    EXPECT_FALSE(searchNamed(*pool, name + "-x"));
  }
}

// Nested quantifiers backtrack exponentially in std::regex (2^40 steps here); RE2 is linear.
TEST(NamedRegex, NestedQuantifiersAnswerAtOnce) {
  std::string err;
  auto re = compileRegex("^(a+)+$", &err);
  ASSERT_TRUE(re) << err;
  EXPECT_FALSE(regexSearch(*re, std::string(40, 'a') + "!"));
  EXPECT_TRUE(regexSearch(*re, std::string(40, 'a')));
  EXPECT_FALSE(regexSearch(*re, std::string(1 << 20, 'a') + "!"));
  auto named = compileNamedRegex("^(?P<x>(a|aa)+)+b$", &err);
  ASSERT_TRUE(named) << err;
  EXPECT_FALSE(searchNamed(*named, std::string(64, 'a')));
}

}  // namespace
}  // namespace proflow::attributes
