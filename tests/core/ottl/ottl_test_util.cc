#include "tests/core/ottl/ottl_test_util.h"

#include <gtest/gtest.h>

#include "core/flat/flat_attributes.h"
#include "tests/support/flat_request.h"
#include "tests/support/profile_builder.h"

namespace proflow::ottl::testing {

otlp::Request smallRequest() {
  proflow::testing::ProfileSpec p;
  p.samples = {{{"work", "main"}, 10}, {{"gc"}, 20}, {{"work", "main"}, 30}};
  otlp::Request r = proflow::testing::makeRequest("api", {p});
  auto* env = r.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
  env->set_key("env");
  env->mutable_value()->set_string_value("prod");
  auto* dict = r.mutable_dictionary();
  const int key = dict->string_table_size();
  dict->add_string_table("thread");
  auto* attr = dict->add_attribute_table();
  attr->set_key_strindex(key);
  attr->mutable_value()->set_string_value("t1");
  r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->mutable_samples(0)->add_attribute_indices(
      dict->attribute_table_size() - 1);
  return r;
}

flat::Batch toFlat(const otlp::Request& r) {
  flat::Batch b;
  EXPECT_TRUE(flat::fromRequest(r, &b).isOk());
  return b;
}

otlp::Request toProto(const flat::Batch& b) {
  otlp::Request r;
  EXPECT_TRUE(flat::toRequest(b, &r).isOk());
  return r;
}

flat::Batch smallBatch() { return toFlat(smallRequest()); }

namespace {

std::optional<ContextKind> contextOf(const std::string& c) {
  if (c.empty()) return std::nullopt;
  auto k = parseContext(c);
  EXPECT_TRUE(k.has_value()) << c;
  return k;
}

std::string describe(const std::vector<CompileError>& errors) {
  std::string out;
  for (const auto& e : errors) out += "col " + std::to_string(e.column) + ": " + e.message + "\n";
  return out;
}

}  // namespace

std::string run(flat::Batch& b, const std::vector<std::string>& statements, const std::string& context,
                const std::vector<std::string>& conditions, ErrorMode mode) {
  std::vector<CompileError> errors;
  auto g = StatementGroup::compile(contextOf(context), conditions, statements, &errors);
  if (!g) return describe(errors);
  RunStats stats;
  Status s = g->run(b, mode, &stats);
  return s.isOk() ? "" : s.message();
}

std::string compileError(const std::string& statement, const std::string& context) {
  std::vector<CompileError> errors;
  StatementGroup::compile(contextOf(context), {}, {statement}, &errors);
  return describe(errors);
}

std::vector<bool> evalCondition(const flat::Batch& b, const std::string& condition, const std::string& context) {
  std::vector<CompileError> errors;
  auto set = ConditionSet::compile(contextOf(context), {condition}, &errors);
  EXPECT_TRUE(set.has_value()) << describe(errors);
  std::vector<bool> out;
  if (!set) return out;
  Evaluator ev(b, set->memoSlots());
  RunStats stats;
  forEachItem(b, set->context(), [&](const Item& item) { out.push_back(set->matches(ev, item, &stats)); });
  EXPECT_EQ(stats.errors, 0u) << stats.first_error;
  return out;
}

std::string resourceAttr(const flat::Batch& b, const std::string& key, uint32_t r) {
  return flat::resourceAttribute(b, b.resources[r], key).value_or("<absent>");
}

std::string profileAttr(const flat::Batch& b, const std::string& key, uint32_t p) {
  return flat::profileAttribute(b, b.profiles[p], key).value_or("<absent>");
}

std::string sampleAttr(const flat::Batch& b, const std::string& key, uint32_t row) {
  for (int32_t i : b.indexList(b.samples.attributes[row])) {
    if (i <= 0 || static_cast<size_t>(i) >= b.attributes.size()) continue;
    const auto& a = b.attributes[static_cast<size_t>(i)];
    if (b.string(a.key_strindex) == key) return flat::valueText(b, a.value);
  }
  return "<absent>";
}

}  // namespace proflow::ottl::testing
