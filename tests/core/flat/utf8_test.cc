// The senders' last UTF-8 check: a valid batch is passed on as it is; invalid string fields, nested
// lists included, are found and repaired so that protobuf parses the encoded request.
#include <gtest/gtest.h>

#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "core/flat/flat_utf8.h"
#include "tests/core/flat/test_requests.h"

namespace proflow::flat {
namespace {

Batch decoded(const otlp::Request& r) {
  Batch b;
  EXPECT_TRUE(decode(r.SerializeAsString(), &b).request.isOk());
  return b;
}

TEST(FlatUtf8, AValidBatchIsPassedOnAsItIs) {
  const Batch b = decoded(testing::everyFieldRequest());
  EXPECT_EQ(countInvalidUtf8(b), 0u);
  Batch scratch;
  size_t repaired = 1;
  EXPECT_EQ(&withValidUtf8(b, &scratch, &repaired), &b);
  EXPECT_EQ(repaired, 0u);
}

TEST(FlatUtf8, InvalidFieldsAndNestedListsAreRepaired) {
  Batch b = decoded(testing::everyFieldRequest());
  // A resource attribute whose value is a key-value list holding a bad key and a bad string value,
  // encoded as a component that wrote raw bytes would leave it.
  otlp::common::KeyValueList list;
  auto* kv = list.add_values();
  kv->set_key("ok");
  kv->mutable_value()->set_string_value("caf\xC3");
  auto* bad_key = list.add_values();
  bad_key->set_key("k\xFF");
  bad_key->mutable_value()->set_int_value(7);
  KeyValue nested;
  nested.key = b.addBytes("nested");
  nested.value.kind = ValueKind::kKvList;
  nested.value.bytes = b.addBytes(list.SerializeAsString());
  b.key_values[b.resources[0].attributes.begin] = nested;
  b.strings.push_back(b.addBytes("mem\xC3py"));
  ASSERT_EQ(countInvalidUtf8(b), 3u);

  Batch scratch;
  size_t repaired = 0;
  const Batch& sent = withValidUtf8(b, &scratch, &repaired);
  EXPECT_EQ(repaired, 3u);
  EXPECT_EQ(countInvalidUtf8(sent), 0u);
  EXPECT_EQ(countInvalidUtf8(b), 3u) << "the shared batch itself is not changed";
  otlp::Request request;
  ASSERT_TRUE(request.ParseFromString(encode(sent)));
  EXPECT_EQ(request.dictionary().string_table(request.dictionary().string_table_size() - 1), "mem\uFFFDpy");
  const auto& value = request.resource_profiles(0).resource().attributes(0).value().kvlist_value();
  ASSERT_EQ(value.values_size(), 2);
  EXPECT_EQ(value.values(0).value().string_value(), "caf\uFFFD");
  EXPECT_EQ(value.values(1).key(), "k\uFFFD");
  EXPECT_EQ(value.values(1).value().int_value(), 7);
}

}  // namespace
}  // namespace proflow::flat
