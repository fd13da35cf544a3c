// OTLP wire -> flat -> wire keeps the meaning of every request (compared as parsed protobuf
// messages), the encoded size is exact, and the converters to and from otlp::Request agree.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include "tests/support/flat_request.h"
#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "tests/core/flat/test_requests.h"

namespace proflow::flat {
namespace {

using google::protobuf::util::MessageDifferencer;

otlp::Request parse(const std::string& wire) {
  otlp::Request r;
  EXPECT_TRUE(r.ParseFromString(wire));
  return r;
}

void expectSameMeaning(const otlp::Request& want, const otlp::Request& got) {
  std::string diff;
  MessageDifferencer d;
  d.ReportDifferencesToString(&diff);
  EXPECT_TRUE(d.Compare(want, got)) << diff;
}

TEST(FlatRoundTrip, DecodeEncodeKeepsTheMeaningOfEveryRequest) {
  for (const auto& [name, request] : testing::corpus()) {
    SCOPED_TRACE(name);
    const std::string wire = request.SerializeAsString();
    Batch batch;
    DecodeResult result = decode(wire, &batch);
    ASSERT_TRUE(result.request.isOk()) << result.request.message();
    EXPECT_EQ(result.rejected_profiles, 0);
    const std::string out = encode(batch);
    EXPECT_EQ(encodedSize(batch), out.size());
    expectSameMeaning(parse(wire), parse(out));
    // Fields in protobuf's order, packed, defaults left out: the very bytes protobuf writes.
    EXPECT_EQ(out, wire);
  }
}

TEST(FlatRoundTrip, EveryFieldRequestSetsWhatTheTestClaims) {
  // Guards the corpus itself: the reference-based and rarely used fields are really there.
  const otlp::Request r = testing::everyFieldRequest();
  const auto& rp = r.resource_profiles(1);
  EXPECT_NE(rp.resource().attributes(0).key_strindex(), 0);
  EXPECT_EQ(rp.resource().attributes(0).value().value_case(), otlp::AnyValue::kStringValueStrindex);
  const auto& p = r.resource_profiles(0).scope_profiles(0).profiles(0);
  EXPECT_FALSE(p.original_payload().empty());
  EXPECT_FALSE(p.original_payload_format().empty());
  EXPECT_EQ(p.profile_id().size(), 16u);
  EXPECT_GT(r.resource_profiles(0).resource().entity_refs_size(), 0);
}

TEST(FlatRoundTrip, ConvertersAgreeWithTheWire) {
  for (const auto& [name, request] : testing::corpus()) {
    SCOPED_TRACE(name);
    Batch batch;
    ASSERT_TRUE(fromRequest(request, &batch).isOk());
    otlp::Request back;
    back.mutable_dictionary()->add_string_table("stale content is replaced");
    ASSERT_TRUE(toRequest(batch, &back).isOk());
    expectSameMeaning(request, back);
    EXPECT_EQ(encode(batch), request.SerializeAsString());
  }
}

TEST(FlatRoundTrip, ReadsUnpackedRepeatedFieldsAndSplitListsLikeProtobuf) {
  // Sample.values sent unpacked and in two runs around other fields; Profile.attribute_indices split
  // by samples; a repeated `resource` message merged into one.
  std::string sample;
  sample += std::string("\x20\x05", 2);           // values: 5 (unpacked)
  sample += std::string("\x08\x01", 2);           // stack_index: 1
  sample += std::string("\x22\x02\x06\x07", 4);   // values: [6, 7] (packed)
  std::string profile;
  profile += std::string("\x5a\x01\x01", 3);  // attribute_indices: [1]
  profile += "\x12" + std::string(1, static_cast<char>(sample.size())) + sample;
  profile += std::string("\x58\x01", 2);      // attribute_indices: 1 (unpacked)
  std::string scope = "\x12" + std::string(1, static_cast<char>(profile.size())) + profile;
  otlp::Request dict_only;
  auto* d = dict_only.mutable_dictionary();
  d->add_string_table("");
  d->add_string_table("k");
  d->add_stack_table();
  d->add_stack_table();
  d->add_attribute_table();
  d->add_attribute_table()->set_key_strindex(1);
  d->add_link_table();
  std::string kv1 = "\x0a\x01" "a";
  std::string kv2 = "\x0a\x01" "b";
  std::string rp;
  rp += "\x0a" + std::string(1, static_cast<char>(kv1.size() + 2)) + "\x0a" + std::string(1, static_cast<char>(kv1.size())) + kv1;
  rp += "\x12" + std::string(1, static_cast<char>(scope.size())) + scope;
  rp += "\x0a" + std::string(1, static_cast<char>(kv2.size() + 2)) + "\x0a" + std::string(1, static_cast<char>(kv2.size())) + kv2;
  std::string wire = "\x0a" + std::string(1, static_cast<char>(rp.size())) + rp + dict_only.SerializeAsString();

  otlp::Request want;
  ASSERT_TRUE(want.ParseFromString(wire));
  ASSERT_EQ(want.resource_profiles(0).resource().attributes_size(), 2);
  Batch batch;
  DecodeResult result = decode(wire, &batch);
  ASSERT_TRUE(result.request.isOk()) << result.request.message();
  EXPECT_EQ(result.rejected_profiles, 0) << (result.profile_errors.empty() ? "" : result.profile_errors[0]);
  expectSameMeaning(want, parse(encode(batch)));
}

}  // namespace
}  // namespace proflow::flat
