// The tests' request-form interning (tests/support/dictionary_builder.h) that fixtures are built with.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/dictionary_builder.h"

namespace proflow {
namespace {

TEST(DictionaryBuilder, CreatesZeroEntriesAtIndexZero) {
  otlp::Dictionary d;
  DictionaryBuilder b(&d);
  EXPECT_EQ(d.string_table_size(), 1);
  EXPECT_EQ(d.string_table(0), "");
  EXPECT_EQ(d.function_table_size(), 1);
  EXPECT_EQ(d.location_table_size(), 1);
  EXPECT_EQ(d.mapping_table_size(), 1);
  EXPECT_EQ(d.stack_table_size(), 1);
  EXPECT_EQ(d.attribute_table_size(), 1);
  ASSERT_EQ(d.link_table_size(), 1);
  EXPECT_EQ(d.link_table(0).trace_id(), std::string(16, '\0'));
  EXPECT_EQ(b.string(""), 0);
}

TEST(DictionaryBuilder, InternsEveryTable) {
  otlp::Dictionary d;
  DictionaryBuilder b(&d);
  int32_t s1 = b.string("main");
  EXPECT_EQ(b.string("main"), s1);
  EXPECT_NE(b.string("other"), s1);

  int32_t f1 = b.function("main", "main", "main.cc", 3);
  EXPECT_EQ(b.function("main", "main", "main.cc", 3), f1);
  EXPECT_NE(b.function("main", "main", "main.cc", 4), f1);

  otlp::Location loc;
  loc.set_address(0x1000);
  loc.add_lines()->set_function_index(f1);
  int32_t l1 = b.location(loc);
  EXPECT_EQ(b.location(loc), l1);
  loc.mutable_lines(0)->set_line(7);
  EXPECT_NE(b.location(loc), l1);

  std::vector<int32_t> stack = {l1, l1 + 1};
  int32_t st = b.stack(stack);
  EXPECT_EQ(b.stack(stack), st);
  EXPECT_NE(b.stack(std::vector<int32_t>{l1}), st);
  EXPECT_EQ(b.stack({}), 0);  // the empty stack is the zero value

  int32_t a1 = b.stringAttribute("thread.name", "worker");
  EXPECT_EQ(b.stringAttribute("thread.name", "worker"), a1);
  EXPECT_NE(b.stringAttribute("thread.name", "main"), a1);
  EXPECT_NE(b.intAttribute("thread.name", 1), a1);
  EXPECT_NE(b.intAttribute("bytes", 1, "By"), b.intAttribute("bytes", 1));

  std::string trace(16, 'a'), span(8, 'b');
  int32_t k = b.link(trace, span);
  EXPECT_EQ(b.link(trace, span), k);
  EXPECT_EQ(b.link(std::string(16, '\0'), std::string(8, '\0')), 0);
}

TEST(DictionaryBuilder, StringValueByIndexEqualsInlineString) {
  otlp::Dictionary d;
  DictionaryBuilder b(&d);
  int32_t inline_attr = b.stringAttribute("k", "v");
  otlp::KeyValueAndUnit by_ref;
  by_ref.set_key_strindex(b.string("k"));
  by_ref.mutable_value()->set_string_value_strindex(b.string("v"));
  EXPECT_EQ(b.attribute(by_ref), inline_attr);
}

TEST(DictionaryBuilder, IndexesAnExistingDictionary) {
  otlp::Dictionary d;
  {
    DictionaryBuilder b(&d);
    b.string("x");
    b.function("f", "", "", 0);
  }
  const int strings = d.string_table_size(), functions = d.function_table_size();
  DictionaryBuilder again(&d);
  EXPECT_EQ(again.string("x"), 1);
  again.function("f", "", "", 0);
  EXPECT_EQ(d.string_table_size(), strings);
  EXPECT_EQ(d.function_table_size(), functions);
}

// Enough entries to make every table grow many times; re-interning must find each one again.
TEST(DictionaryBuilder, KeepsEveryEntryAcrossTableGrowth) {
  otlp::Dictionary d;
  DictionaryBuilder b(&d);
  constexpr int kN = 5000;
  std::vector<int32_t> strings, stacks, locations, attrs, links;
  for (int i = 0; i < kN; ++i) {
    strings.push_back(b.string("s" + std::to_string(i)));
    std::vector<int32_t> stack{i, i + 1, i % 7};
    stacks.push_back(b.stack(stack));
    otlp::Location l;
    l.set_address(static_cast<uint64_t>(i));
    l.add_lines()->set_function_index(b.function("f" + std::to_string(i % 100), "", "", 0));
    locations.push_back(b.location(l));
    attrs.push_back(b.intAttribute("n", i, "bytes"));
    links.push_back(b.link(std::string(16, static_cast<char>(i % 256)), std::to_string(i)));
  }
  EXPECT_EQ(d.string_table_size(), 1 + kN + 100 + 2);  // "" + s* + f* + "n" + "bytes"
  EXPECT_EQ(d.stack_table_size(), 1 + kN);
  EXPECT_EQ(d.function_table_size(), 1 + 100);
  for (int i = 0; i < kN; ++i) {
    ASSERT_EQ(b.string("s" + std::to_string(i)), strings[i]);
    ASSERT_EQ(b.findString("s" + std::to_string(i)), strings[i]);
    std::vector<int32_t> stack{i, i + 1, i % 7};
    ASSERT_EQ(b.stack(stack), stacks[i]);
    otlp::Location l;
    l.set_address(static_cast<uint64_t>(i));
    l.add_lines()->set_function_index(b.function("f" + std::to_string(i % 100), "", "", 0));
    ASSERT_EQ(b.location(l), locations[i]);
    ASSERT_EQ(b.intAttribute("n", i, "bytes"), attrs[i]);
    ASSERT_EQ(b.link(std::string(16, static_cast<char>(i % 256)), std::to_string(i)), links[i]);
  }
  EXPECT_EQ(b.findString("absent"), -1);
  EXPECT_EQ(d.stack_table_size(), 1 + kN);
  EXPECT_EQ(d.location_table_size(), 1 + kN);
  EXPECT_EQ(d.attribute_table_size(), 1 + kN);
  EXPECT_EQ(d.link_table_size(), 1 + kN);
}

TEST(DictionaryBuilder, ExistingDuplicatesResolveToTheFirstIndex) {
  otlp::Dictionary d;
  for (const char* s : {"", "a", "b", "a"}) d.add_string_table(s);
  d.add_function_table();
  for (int k = 0; k < 2; ++k) d.add_function_table()->set_name_strindex(1);
  DictionaryBuilder b(&d);
  EXPECT_EQ(b.string("a"), 1);
  EXPECT_EQ(b.findString("b"), 2);
  otlp::Function f;
  f.set_name_strindex(1);
  EXPECT_EQ(b.function(f), 1);
  EXPECT_EQ(d.string_table_size(), 4);
  EXPECT_EQ(d.function_table_size(), 3);
}

// The scalar helpers and the message form of the same attribute are one entry; key, unit and value
// type each tell entries apart.
TEST(DictionaryBuilder, ScalarAttributeHelpersMatchTheMessageForm) {
  otlp::Dictionary d;
  DictionaryBuilder b(&d);
  otlp::AnyValue v;
  v.set_int_value(3);
  const int32_t by_message = b.attribute("n", v, "ms");
  EXPECT_EQ(b.intAttribute("n", 3, "ms"), by_message);
  EXPECT_NE(b.intAttribute("n", 3), by_message);
  EXPECT_NE(b.intAttribute("m", 3, "ms"), by_message);
  EXPECT_NE(b.doubleAttribute("n", 3.0, "ms"), by_message);
  v.set_bool_value(true);
  EXPECT_EQ(b.boolAttribute("flag", true), b.attribute("flag", v));
  EXPECT_NE(b.boolAttribute("flag", false), b.boolAttribute("flag", true));
  v.set_string_value("x");
  EXPECT_EQ(b.stringAttribute("k", "x"), b.attribute("k", v));
  v.set_double_value(1.5);
  EXPECT_EQ(b.doubleAttribute("d", 1.5), b.attribute("d", v));
  const auto& stored = d.attribute_table(b.stringAttribute("k", "x"));
  EXPECT_EQ(dictString(d, stored.key_strindex()), "k");
  EXPECT_EQ(stored.value().string_value(), "x");
  EXPECT_EQ(stored.unit_strindex(), 0);
}

}  // namespace
}  // namespace proflow
