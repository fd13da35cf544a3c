// Config errors of the transform processor: every bad statement reported at its YAML line and
// column, plus the column inside the statement; shapes the Collector refuses are refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/processors/transform/transform_test_util.h"

namespace proflow::processors::transform {
namespace {

using ::testing::HasSubstr;

TEST(TransformConfig, ValidShapes) {
  EXPECT_EQ(decode(""), "");
  EXPECT_EQ(decode("profile_statements:\n  - set(resource.attributes[\"a\"], \"b\")\n"), "");
  EXPECT_EQ(decode("error_mode: silent\nprofile_statements:\n  - context: sample\n    conditions: ['values[0] > 1']\n"
                   "    statements: ['set(attributes[\"a\"], 1)']\n"),
            "");
}

TEST(TransformConfig, StatementErrorsCarryFileLineColumnAndColumnInStatement) {
  const std::string e = decode(
      "profile_statements:\n"
      "  - context: resource\n"
      "    statements:\n"
      "      - set(attributes[\"a\"], \"b\")\n"
      "      - set(atributes[\"a\"], \"b\")\n"
      "    conditions:\n"
      "      - 'attributes[\"x\"] == '\n");
  EXPECT_THAT(e, HasSubstr("t.yaml:5:9: processors.transform.profile_statements[0].statements[1]: column 5 of "
                           "'set(atributes[\"a\"], \"b\")': unknown path atributes"));
  EXPECT_THAT(e, HasSubstr("t.yaml:7:9: processors.transform.profile_statements[0].conditions[0]: column 20"));
  EXPECT_THAT(e, HasSubstr("expected a value"));
  // The list-of-strings form names the list's own entries.
  EXPECT_THAT(decode("profile_statements:\n  - set(resource.attributes[\"a\"], Nope(1))\n"),
              HasSubstr("t.yaml:2:5: processors.transform.profile_statements[0]: column 31"));
}

TEST(TransformConfig, ShapeErrors) {
  EXPECT_THAT(decode("error_mode: loud\n"), HasSubstr("error_mode must be ignore, silent or propagate"));
  EXPECT_THAT(decode("profile_statements:\n  - context: span\n    statements: ['set(x.y, 1)']\n"),
              HasSubstr("context must be resource, scope, profile or sample, got 'span'"));
  EXPECT_THAT(decode("profile_statements:\n  - context: resource\n    statement: ['x']\n"),
              HasSubstr("unknown key 'statement'"));
  EXPECT_THAT(decode("profile_statements:\n  - context: resource\n"), HasSubstr("a group needs statements"));
  EXPECT_THAT(decode("profile_statements:\n  - set(resource.attributes[\"a\"], 1)\n  - statements: ['set(resource.attributes[\"a\"], 1)']\n"),
              HasSubstr("not both"));
  EXPECT_THAT(decode("profile_statements: {a: 1}\n"), HasSubstr("expected a list"));
}

}  // namespace
}  // namespace proflow::processors::transform
