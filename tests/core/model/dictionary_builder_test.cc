#include <gtest/gtest.h>

#include "core/dictionary_builder.h"

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

}  // namespace
}  // namespace proflow
