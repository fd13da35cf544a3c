#include "core/attributes/actions.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/config/component_config.h"
#include "core/config/config_loader.h"

namespace proflow::attributes {
namespace {

using ::testing::HasSubstr;

ActionConfig action(std::string kind, std::string key, std::string value = "", bool quoted = false) {
  ActionConfig a;
  a.action = std::move(kind);
  a.key = std::move(key);
  if (!value.empty()) {
    a.value.kind = config::ConfigNode::Kind::kScalar;
    a.value.scalar = std::move(value);
    a.value.quoted = quoted;
  }
  return a;
}

otlp::AnyValue str(const std::string& s) {
  otlp::AnyValue v;
  v.set_string_value(s);
  return v;
}

AttrList list(std::initializer_list<std::pair<std::string, std::string>> kvs) {
  AttrList out;
  int i = 0;
  for (const auto& [k, v] : kvs) out.push_back({k, str(v), i++, false});
  return out;
}

std::string show(const AttrList& l) {
  std::string out;
  for (const auto& a : l) {
    out += a.key + "=";
    switch (a.value.value_case()) {
      case otlp::AnyValue::kStringValue: out += "s:" + a.value.string_value(); break;
      case otlp::AnyValue::kIntValue: out += "i:" + std::to_string(a.value.int_value()); break;
      case otlp::AnyValue::kDoubleValue: out += "d:" + std::to_string(a.value.double_value()); break;
      case otlp::AnyValue::kBoolValue: out += std::string("b:") + (a.value.bool_value() ? "true" : "false"); break;
      default: out += "?";
    }
    out += a.changed ? "*" : "";
    out += ";";
  }
  return out;
}

TEST(AttributeActions, InsertUpdateUpsertKeepKeysUnique) {
  ActionSet set({action("insert", "env", "prod"), action("insert", "region", "eu"), action("update", "missing", "x"),
                 action("update", "host", "h2"), action("upsert", "team", "core"), action("upsert", "env", "dev")});
  auto l = list({{"env", "staging"}, {"host", "h1"}});
  EXPECT_TRUE(set.apply(l));
  EXPECT_EQ(show(l), "env=s:dev*;host=s:h2*;region=s:eu*;team=s:core*;");
}

TEST(AttributeActions, TypedValuesFromYamlScalars) {
  ActionSet set({action("insert", "i", "42"), action("insert", "d", "1.5"), action("insert", "b", "true"),
                 action("insert", "s", "42", /*quoted=*/true), action("insert", "t", "hello")});
  AttrList l;
  set.apply(l);
  EXPECT_EQ(show(l), "i=i:42*;d=d:1.500000*;b=b:true*;s=s:42*;t=s:hello*;");
}

TEST(AttributeActions, FromAttributeCopiesAndSkipsWhenSourceIsAbsent) {
  ActionConfig copy = action("upsert", "owner");
  copy.from_attribute = "team";
  ActionConfig none = action("insert", "x");
  none.from_attribute = "absent";
  ActionSet set({copy, none});
  auto l = list({{"team", "core"}});
  set.apply(l);
  EXPECT_EQ(show(l), "team=s:core;owner=s:core*;");
}

// from_context reads the request metadata the receiver kept: metadata.<key> or <key>, any case;
// several values joined with ';'; bytes that are not UTF-8 replaced; absent: the action is skipped.
TEST(AttributeActions, FromContextCopiesTheRequestMetadata) {
  ActionConfig tenant = action("upsert", "tenant");
  tenant.from_context = "metadata.X-Scope-OrgID";
  ActionConfig hops = action("insert", "hops");
  hops.from_context = "x-forwarded-for";
  ActionConfig raw = action("insert", "raw");
  raw.from_context = "x-raw";
  ActionConfig absent = action("insert", "absent");
  absent.from_context = "metadata.nothing";
  ActionSet set({tenant, hops, raw, absent});
  ClientMetadata context;
  context.add("x-scope-orgid", "acme");
  context.add("X-Forwarded-For", "10.0.0.1");
  context.add("x-forwarded-for", "10.0.0.2");
  context.add("x-raw", std::string("a\xff", 2));
  auto l = list({{"tenant", "forged"}});
  EXPECT_TRUE(set.apply(l, &context));
  EXPECT_EQ(show(l), "tenant=s:acme*;hops=s:10.0.0.1;10.0.0.2*;raw=s:a\xEF\xBF\xBD*;");
  auto untouched = list({{"tenant", "kept"}});
  EXPECT_FALSE(set.apply(untouched, nullptr));
  EXPECT_EQ(show(untouched), "tenant=s:kept;");
}

TEST(AttributeActions, DeleteAndHashByKeyOrPattern) {
  ActionConfig del = action("delete", "");
  del.pattern = "^tmp\\.";
  ActionSet set({del, action("hash", "user")});
  auto l = list({{"tmp.a", "1"}, {"user", "alice"}, {"keep.tmp.b", "2"}, {"tmp.c", "3"}});
  EXPECT_TRUE(set.apply(l));
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0].key, "user");
  // sha256("alice"), computed with `printf alice | sha256sum`.
  EXPECT_EQ(l[0].value.string_value(), "2bd806c97f0e00af1a1fc3328fa763a9269723c8db8fac4f93af71db186d6e90");
  EXPECT_EQ(l[1].key, "keep.tmp.b");
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(AttributeActions, ExtractIntoNamedKeysOverwritingExistingOnes) {
  ActionConfig ex = action("extract", "http.url");
  ex.pattern = R"(^/api/(?P<api.version>v\d+)/(?<resource>\w+))";
  // Group names with dots are not valid regex names: only letters, digits and _.
  std::string err;
  EXPECT_FALSE(compileNamedRegex(ex.pattern, &err));
  ex.pattern = R"(^/api/(?P<version>v\d+)/(?<resource>\w+)(?:/(?P<id>\d+))?)";
  ActionSet set({ex});
  auto l = list({{"http.url", "/api/v1/users?x=1"}, {"resource", "old"}});
  EXPECT_TRUE(set.apply(l));
  EXPECT_EQ(show(l), "http.url=s:/api/v1/users?x=1;resource=s:users*;version=s:v1*;");
  auto nomatch = list({{"http.url", "/health"}});
  EXPECT_FALSE(set.apply(nomatch));
}

// A 1 MiB value through the attributes README's extract pattern, and a nested-quantifier key pattern
// over a long key: both used to overflow the stack or backtrack for hours in a worker.
TEST(AttributeActions, HostileValuesAndPatternsFinish) {
  ActionConfig ex = action("extract", "host.name");
  ex.pattern = R"(^(?P<pool>[a-z-]+)-\d+$)";
  ActionConfig del = action("delete", "");
  del.pattern = "^(a+)+$";
  ActionSet set({ex, del});
  const std::string pool(1 << 20, 'w');
  auto l = list({{"host.name", pool + "-3"}, {std::string(40, 'a') + "!", "kept"}, {std::string(40, 'a'), "gone"}});
  EXPECT_TRUE(set.apply(l));
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[1].key, std::string(40, 'a') + "!");
  EXPECT_EQ(l[2].key, "pool");
  EXPECT_EQ(l[2].value.string_value(), pool);
}

TEST(AttributeActions, ConvertBetweenScalarTypes) {
  auto conv = [](const char* key, const char* to) {
    ActionConfig c = action("convert", key);
    c.converted_type = to;
    return c;
  };
  ActionSet set({conv("a", "int"), conv("b", "double"), conv("c", "bool"), conv("d", "int"), conv("e", "int")});
  auto l = list({{"a", "17"}, {"b", "2.5"}, {"c", "TRUE"}, {"d", "not a number"}, {"e", "3.9"}});
  set.apply(l);
  EXPECT_EQ(show(l), "a=i:17*;b=d:2.500000*;c=b:true*;d=s:not a number;e=i:3*;");
  ActionSet back({conv("a", "string"), conv("c", "string"), conv("e", "double")});
  back.apply(l);
  EXPECT_EQ(show(l), "a=s:17*;b=d:2.500000*;c=s:true*;d=s:not a number;e=d:3.000000*;");
  auto same = list({{"a", "x"}});
  EXPECT_FALSE(ActionSet({conv("a", "string")}).apply(same));
}

struct Holder {
  std::vector<ActionConfig> actions;
  template <class V>
  void visit(V& v) {
    v.field("actions", actions);
  }
  void validate(config::ValidationContext& ctx) const { validateActions(actions, "actions", true, ctx); }
};

config::ConfigErrors validate(const std::string& yaml) {
  config::ConfigErrors errors;
  auto loaded = config::parseYaml(yaml, "t.yaml", errors);
  config::TypedConfig<Holder> cfg;
  cfg.decode(loaded.root, "processors.attributes", errors);
  cfg.validate(errors);
  return errors;
}

TEST(AttributeActionsConfig, ReportsEachMistake) {
  EXPECT_THAT(validate("actions: []\n").format(), HasSubstr("at least one action"));
  EXPECT_THAT(validate("actions: [{key: a, action: frobnicate}]\n").format(), HasSubstr("unknown action 'frobnicate'"));
  EXPECT_THAT(validate("actions: [{key: a}]\n").format(), HasSubstr("action is required"));
  EXPECT_THAT(validate("actions: [{action: insert, value: 1}]\n").format(), HasSubstr("needs a key"));
  EXPECT_THAT(validate("actions: [{key: a, action: insert}]\n").format(),
              HasSubstr("needs exactly one of value, from_attribute or from_context"));
  EXPECT_THAT(validate("actions: [{key: a, action: upsert, value: 1, from_attribute: b}]\n").format(),
              HasSubstr("needs exactly one of value, from_attribute or from_context"));
  EXPECT_THAT(validate("actions: [{key: a, pattern: b, action: delete}]\n").format(),
              HasSubstr("exactly one of key or pattern"));
  EXPECT_THAT(validate("actions: [{key: a, action: delete, value: x}]\n").format(), HasSubstr("takes no value"));
  EXPECT_THAT(validate("actions: [{key: a, action: insert, from_context: auth.username}]\n").format(),
              HasSubstr("authenticators here keep no attributes"));
  EXPECT_THAT(validate("actions: [{key: a, action: delete, from_context: x}]\n").format(),
              HasSubstr("takes no from_context"));
  EXPECT_THAT(validate("actions: [{pattern: '(', action: hash}]\n").format(), HasSubstr("invalid regex '(' (RE2 syntax): missing )"));
  EXPECT_THAT(validate("actions: [{key: a, pattern: '(x)', action: extract}]\n").format(),
              HasSubstr("at least one named group"));
  EXPECT_THAT(validate("actions: [{key: a, action: convert, converted_type: float}]\n").format(),
              HasSubstr("converted_type must be string, int, double or bool"));
  EXPECT_THAT(validate("actions: [{key: a, action: insert, value: {x: 1}}]\n").format(),
              HasSubstr("value must be a scalar"));
  EXPECT_THAT(validate("actions: [{key: a, action: insert, valu: 1}]\n").format(), HasSubstr("unknown key 'valu'"));
  auto located = validate("actions:\n  - key: a\n    action: convert\n    converted_type: float\n").format();
  EXPECT_THAT(located, HasSubstr("t.yaml:4:"));
  EXPECT_THAT(located, HasSubstr("actions[0].converted_type"));
  EXPECT_TRUE(validate("actions:\n  - {key: a, action: insert, value: 1}\n  - {pattern: '^x', action: delete}\n"
                       "  - {key: u, pattern: '(?P<h>\\w+)', action: extract}\n"
                       "  - {key: a, action: convert, converted_type: string}\n")
                  .empty());
}

}  // namespace
}  // namespace proflow::attributes
