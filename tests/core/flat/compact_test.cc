// Dropping what nothing references: the batch means the same afterwards (a RequestMerger pass, which
// keeps only what is referenced, gives the same request before and after), and nothing unreferenced
// is left to encode.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include "core/flat/flat_compact.h"
#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "tests/core/flat/test_requests.h"
#include "tests/support/request_merger.h"

namespace proflow::flat {
namespace {

using google::protobuf::util::MessageDifferencer;

otlp::Request referenced(const otlp::Request& r) {
  otlp::Request out;
  RequestMerger(&out).append(r);
  return out;
}

// `r` with a string and an attribute (whose value is a reference) that nothing points at.
otlp::Request withOrphans(otlp::Request r) {
  auto* d = r.mutable_dictionary();
  if (d->string_table_size() == 0) d->add_string_table("");  // index 0: the zero values
  if (d->attribute_table_size() == 0) d->add_attribute_table();
  d->add_string_table("orphan-secret");
  d->add_string_table("orphan.key");
  auto* a = d->add_attribute_table();
  a->set_key_strindex(d->string_table_size() - 1);
  a->mutable_value()->set_string_value("orphan-value");
  return r;
}

void expectCompactedKeepsMeaning(const otlp::Request& input, Batch b) {
  const DroppedEntries first = dropUnreferenced(b);
  EXPECT_TRUE(first.any());
  const std::string wire = encode(b);
  EXPECT_EQ(wire.find("orphan-secret"), std::string::npos);
  EXPECT_EQ(wire.find("orphan-value"), std::string::npos);
  otlp::Request got;
  ASSERT_TRUE(got.ParseFromString(wire));
  std::string diff;
  MessageDifferencer differ;
  differ.ReportDifferencesToString(&diff);
  EXPECT_TRUE(differ.Compare(referenced(input), referenced(got))) << diff.substr(0, 4000);
  EXPECT_FALSE(dropUnreferenced(b).any()) << "everything left is referenced";
}

TEST(FlatCompact, DropsOrphansAndKeepsTheMeaningOverTheCorpus) {
  auto corpus = testing::corpus();
  corpus.emplace_back("every field", testing::everyFieldRequest());
  for (auto& [name, request] : corpus) {
    SCOPED_TRACE(name);
    const otlp::Request input = withOrphans(request);
    Batch b;
    ASSERT_TRUE(decode(input.SerializeAsString(), &b).request.isOk());
    expectCompactedKeepsMeaning(input, std::move(b));
  }
}

// Edits point many samples at one copy of a list: each index of it is re-pointed once.
TEST(FlatCompact, ListsSharedBetweenSamplesAreRepointedOnce) {
  const otlp::Request input = withOrphans(testing::agentRequest(1, 40, 7));
  Batch b;
  ASSERT_TRUE(decode(input.SerializeAsString(), &b).request.isOk());
  ASSERT_GE(b.samples.size(), 2u);
  for (size_t row = 1; row < b.samples.size(); ++row) b.samples.attributes[row] = b.samples.attributes[0];
  otlp::Request shared;
  ASSERT_TRUE(shared.ParseFromString(encode(b)));
  expectCompactedKeepsMeaning(shared, std::move(b));
}

}  // namespace
}  // namespace proflow::flat
