// Bad input is refused with a clear message and never crashes the decoder; the receivers' checks
// give the same verdicts and messages as core/otlp_validate on the protobuf request.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include <google/protobuf/unknown_field_set.h>

#include "core/model/batch.h"
#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "core/formats/varint_bits.h"
#include "tests/support/flat_request.h"
#include "core/util/utf8.h"
#include "tests/core/flat/test_requests.h"

namespace proflow::flat {
namespace {

using ::testing::HasSubstr;

TEST(FlatDecode, EveryTruncationIsRefusedExactlyWhenProtobufRefusesIt) {
  const std::string wire = testing::everyFieldRequest().SerializeAsString();
  DecodeOptions structural;
  structural.validate = false;
  int refused = 0;
  for (size_t n = 0; n < wire.size(); ++n) {
    const std::string prefix = wire.substr(0, n);
    otlp::Request r;
    const bool protobuf_ok = r.ParseFromString(prefix);
    Batch batch;
    const DecodeResult result = decode(prefix, &batch, structural);
    ASSERT_EQ(result.request.isOk(), protobuf_ok) << "prefix of " << n << " bytes: " << result.request.message();
    if (!protobuf_ok) {
      ++refused;
      EXPECT_THAT(result.request.message(), HasSubstr("malformed OTLP profiles request"));
      EXPECT_TRUE(batch.resources.empty() && batch.strings.empty());  // nothing half-decoded is left
    }
  }
  EXPECT_GT(refused, static_cast<int>(wire.size() / 2));
}

TEST(FlatDecode, SurvivesRandomCorruptionAndReencodesOnlyValidProtobuf) {
  const std::string wire = testing::everyFieldRequest().SerializeAsString() +
                           testing::agentRequest(1, 5, 2).SerializeAsString();
  std::mt19937 rng(42);
  int accepted = 0;
  for (int round = 0; round < 3000; ++round) {
    std::string bad = wire;
    for (int flips = 1 + static_cast<int>(rng() % 3); flips > 0; --flips)
      bad[rng() % bad.size()] = static_cast<char>(rng());
    Batch batch;
    const DecodeResult result = decode(bad, &batch);
    if (!result.request.isOk()) {
      EXPECT_FALSE(result.request.message().empty());
      continue;
    }
    ++accepted;
    const std::string out = encode(batch);
    ASSERT_EQ(out.size(), encodedSize(batch));
    otlp::Request check;
    ASSERT_TRUE(check.ParseFromString(out)) << "round " << round;
    otlp::Request pruned = check;
    EXPECT_TRUE(proflow::validateAndPrune(&pruned).request.isOk()) << "round " << round;
  }
  EXPECT_GT(accepted, 0);
}

// Decodes `wire` without validation and checks the verdict and the meaning against protobuf's.
void expectProtobufReading(const std::string& wire, bool accepted) {
  otlp::Request want;
  ASSERT_EQ(want.ParseFromString(wire), accepted);
  DecodeOptions structural;
  structural.validate = false;
  Batch batch;
  const DecodeResult result = decode(wire, &batch, structural);
  ASSERT_EQ(result.request.isOk(), accepted) << result.request.message();
  if (!accepted) return;
  otlp::Request got;
  ASSERT_TRUE(got.ParseFromString(encode(batch)));
  want.DiscardUnknownFields();
  EXPECT_EQ(got.SerializeAsString(), want.SerializeAsString());
}

// A length-delimited field (numbers below 16).
std::string lenField(int field, const std::string& payload) {
  char length[10];
  return std::string(1, static_cast<char>(field << 3 | 2)) +
         std::string(length, formats::putVarint(length, payload.size())) + payload;
}

TEST(FlatDecode, ReadsAWrongWireTypeAsAnUnknownFieldLikeProtobuf) {
  // Location.mapping_index (field 1, varint) sent length-delimited, then its address as it should be.
  const std::string location = std::string("\x0a\x01\x00", 3) + std::string("\x10\x07", 2);
  const std::string wire = lenField(2, lenField(2, location));
  expectProtobufReading(wire, true);
  Batch batch;
  DecodeOptions structural;
  structural.validate = false;
  ASSERT_TRUE(decode(wire, &batch, structural).request.isOk());
  ASSERT_EQ(batch.locations.size(), 1u);
  EXPECT_EQ(batch.locations[0].mapping_index, 0);
  EXPECT_EQ(batch.locations[0].address, 7u);
}

TEST(FlatDecode, SkipsGroupsInUnknownFieldsLikeProtobuf) {
  const std::string wire = testing::everyFieldRequest().SerializeAsString();
  const std::string group = "\xab\x06" "\x08\x01" "\xb3\x06" "\x10\x02" "\xb4\x06" "\xac\x06";  // 101 { 102 { } }
  expectProtobufReading(wire + group, true);
  expectProtobufReading(group + wire, true);
  // Inside a Function of the dictionary.
  const std::string function = std::string("\x08\x01", 2) + "\x1b" "\x08\x05" "\x1c";  // 3 { 1: 5 }
  expectProtobufReading(lenField(2, lenField(3, function)), true);
  // An end key that does not close the open group, a group left open, an end key with no group.
  expectProtobufReading(wire + "\xab\x06" "\xb4\x06", false);
  expectProtobufReading(wire + "\xab\x06" "\x08\x01", false);
  expectProtobufReading(wire + "\xac\x06", false);
  expectProtobufReading(lenField(2, lenField(3, std::string("\x08\x01\x1c", 3))), false);
  // Groups nested around protobuf's recursion limit, at the top and in a dictionary entry (two
  // messages deeper): protobuf takes some of these depths and refuses the others.
  int accepted = 0, refused = 0;
  for (int levels = 95; levels <= 101; ++levels) {
    std::string nested;
    for (int i = 0; i < levels; ++i) nested += "\xab\x06";
    for (int i = 0; i < levels; ++i) nested += "\xac\x06";
    std::string in_function = std::string("\x08\x01", 2);
    for (int i = 0; i < levels; ++i) in_function += "\x1b";
    for (int i = 0; i < levels; ++i) in_function += "\x1c";
    for (const std::string& candidate : {wire + nested, lenField(2, lenField(3, in_function))}) {
      otlp::Request check;
      const bool ok = check.ParseFromString(candidate);
      (ok ? accepted : refused)++;
      expectProtobufReading(candidate, ok);
    }
  }
  EXPECT_GT(accepted, 0);
  EXPECT_GT(refused, 0);
}

TEST(FlatDecode, ReadsKeysAndLengthsAsProtobufDoes) {
  const std::string wire = testing::everyFieldRequest().SerializeAsString();
  // A 5-byte key whose last byte sets bits past 32 (protobuf keeps the low 32), then in 6 bytes.
  expectProtobufReading(wire + std::string("\xb8\x87\x87\x8c\x72\x00", 6), true);
  expectProtobufReading(wire + std::string("\xb8\x87\x87\x8c\x82\x00\x00", 7), false);
  // A length of 0 written in 5 bytes, then in 6, for an unknown field and for a known message.
  expectProtobufReading(wire + std::string("\xa2\x06\x80\x80\x80\x80\x00", 7), true);
  expectProtobufReading(wire + std::string("\xa2\x06\x80\x80\x80\x80\x80\x00", 8), false);
  expectProtobufReading(wire + std::string("\x12\x80\x80\x80\x80\x00", 6), true);
  expectProtobufReading(wire + std::string("\x12\x80\x80\x80\x80\x80\x00", 7), false);
}

TEST(FlatDecode, MergesAValueSentTwiceLikeProtobuf) {
  // KeyValue.value sent three times: a string, an empty AnyValue (which keeps it), then one AnyValue
  // with an array twice (appended, and replacing the string); then a string and an empty value.
  otlp::Request r = testing::everyFieldRequest();
  otlp::KeyValue kv;
  kv.set_key("merged");
  otlp::AnyValue first, second;
  first.set_string_value("dropped by the array");
  second.mutable_array_value()->add_values()->set_int_value(1);
  std::string three_values = kv.SerializeAsString() + lenField(2, first.SerializeAsString()) + lenField(2, "");
  three_values += lenField(2, second.SerializeAsString() + second.SerializeAsString());
  const std::string resource_wire = lenField(1, three_values);
  std::string rp = lenField(1, resource_wire);
  const std::string wire = r.SerializeAsString() + lenField(1, rp);
  expectProtobufReading(wire, true);
  otlp::Request parsed;
  ASSERT_TRUE(parsed.ParseFromString(wire));
  ASSERT_EQ(parsed.resource_profiles_size(), r.resource_profiles_size() + 1);
  const auto& value = parsed.resource_profiles(r.resource_profiles_size()).resource().attributes(0).value();
  ASSERT_EQ(value.array_value().values_size(), 2);  // the case is what the test claims

  const std::string kept = kv.SerializeAsString() + lenField(2, first.SerializeAsString()) + lenField(2, "");
  expectProtobufReading(r.SerializeAsString() + lenField(1, lenField(1, lenField(1, kept))), true);
}

TEST(FlatDecode, RefusesInvalidUtf8InStringFieldsLikeProtobuf) {
  otlp::Request r;
  r.mutable_dictionary()->add_string_table("");
  std::string wire = r.SerializeAsString();
  wire += std::string("\x12\x04\x2a\x02\xc3\x28", 6);  // dictionary.string_table += "\xc3\x28"
  otlp::Request check;
  EXPECT_FALSE(check.ParseFromString(wire));
  Batch batch;
  const DecodeResult result = decode(wire, &batch);
  EXPECT_THAT(result.request.message(), HasSubstr("not valid UTF-8"));
  EXPECT_TRUE(isValidUtf8("plain ascii and \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"));
  EXPECT_FALSE(isValidUtf8("\xed\xa0\x80"));  // a surrogate
  EXPECT_FALSE(isValidUtf8("\xc0\xaf"));      // overlong
}

TEST(FlatDecode, BoundsEntriesAndNesting) {
  const std::string wire = testing::agentRequest(2, 100, 3).SerializeAsString();
  Batch batch;
  DecodeOptions small;
  small.max_entries = 50;
  const DecodeResult result = decode(wire, &batch, small);
  EXPECT_EQ(result.request.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(result.request.message(), HasSubstr("more than 50 entries"));

  otlp::Request deep = testing::everyFieldRequest();
  otlp::AnyValue* v = deep.mutable_resource_profiles(0)->mutable_resource()->add_attributes()->mutable_value();
  for (int i = 0; i < 150; ++i) v = v->mutable_array_value()->add_values();
  v->set_int_value(1);
  const DecodeResult nested = decode(deep.SerializeAsString(), &batch);
  EXPECT_THAT(nested.request.message(), HasSubstr("nests deeper than 100"));
}

TEST(FlatDecode, RefusesDeepNestingExactlyWhereProtobufDoes) {
  // Arrays in a resource attribute, a dictionary attribute and a scope attribute, around the limit.
  for (int where = 0; where < 3; ++where) {
    for (int levels = 40; levels < 56; ++levels) {
      otlp::Request r = testing::everyFieldRequest();
      otlp::AnyValue* v = where == 0   ? r.mutable_resource_profiles(0)->mutable_resource()->add_attributes()->mutable_value()
                          : where == 1 ? r.mutable_dictionary()->add_attribute_table()->mutable_value()
                                       : r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_scope()->add_attributes()->mutable_value();
      for (int i = 0; i < levels; ++i) v = v->mutable_array_value()->add_values();
      v->set_int_value(1);
      const std::string wire = r.SerializeAsString();
      otlp::Request check;
      Batch batch;
      DecodeOptions structural;
      structural.validate = false;
      EXPECT_EQ(decode(wire, &batch, structural).request.isOk(), check.ParseFromString(wire))
          << "place " << where << ", " << levels << " levels";
    }
  }
}

// Requests the validator must refuse or prune, checked against validateAndPrune on protobuf.
std::vector<std::pair<std::string, otlp::Request>> invalidRequests() {
  std::vector<std::pair<std::string, otlp::Request>> out;
  auto add = [&](const std::string& name, auto&& mutate) {
    otlp::Request r = testing::everyFieldRequest();
    mutate(r);
    out.emplace_back(name, std::move(r));
  };
  auto profile = [](otlp::Request& r) {
    return r.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0);
  };
  add("stack index", [&](otlp::Request& r) { profile(r)->mutable_samples(1)->set_stack_index(99); });
  add("link index", [&](otlp::Request& r) { profile(r)->mutable_samples(0)->set_link_index(-1); });
  add("sample attribute", [&](otlp::Request& r) { profile(r)->mutable_samples(0)->add_attribute_indices(8); });
  add("values vs timestamps", [&](otlp::Request& r) { profile(r)->mutable_samples(0)->add_values(1); });
  add("no values", [&](otlp::Request& r) { profile(r)->mutable_samples(1)->clear_timestamps_unix_nano(); });
  add("pre-v1.10 sample", [&](otlp::Request& r) {
    auto* s = profile(r)->mutable_samples(1);
    s->clear_timestamps_unix_nano();
    s->GetReflection()->MutableUnknownFields(s)->AddLengthDelimited(3, "\x05");  // v1.9 attribute_indices
  });
  add("profile id", [&](otlp::Request& r) { profile(r)->set_profile_id("short"); });
  add("sample type", [&](otlp::Request& r) { profile(r)->mutable_period_type()->set_unit_strindex(1000); });
  add("profile attribute", [&](otlp::Request& r) { profile(r)->add_attribute_indices(-2); });
  add("string zero", [&](otlp::Request& r) { r.mutable_dictionary()->set_string_table(0, "x"); });
  add("function", [&](otlp::Request& r) { r.mutable_dictionary()->mutable_function_table(1)->set_name_strindex(77); });
  add("mapping", [&](otlp::Request& r) { r.mutable_dictionary()->mutable_mapping_table(1)->add_attribute_indices(9); });
  add("location mapping", [&](otlp::Request& r) { r.mutable_dictionary()->mutable_location_table(1)->set_mapping_index(2); });
  add("location line", [&](otlp::Request& r) {
    r.mutable_dictionary()->mutable_location_table(1)->mutable_lines(0)->set_function_index(3);
  });
  add("stack", [&](otlp::Request& r) { r.mutable_dictionary()->mutable_stack_table(1)->add_location_indices(3); });
  add("link", [&](otlp::Request& r) { r.mutable_dictionary()->mutable_link_table(1)->set_span_id("1234"); });
  add("attribute", [&](otlp::Request& r) {
    r.mutable_dictionary()->mutable_attribute_table(1)->mutable_value()->set_string_value_strindex(17);
  });
  add("resource", [&](otlp::Request& r) {
    r.mutable_resource_profiles(1)->mutable_resource()->mutable_attributes(0)->set_key_strindex(17);
  });
  return out;
}

TEST(FlatValidate, SameVerdictsAndMessagesAsTheProtobufValidator) {
  for (auto& [name, request] : invalidRequests()) {
    SCOPED_TRACE(name);
    otlp::Request pruned = request;
    const ValidationResult want = proflow::validateAndPrune(&pruned);
    Batch batch;
    const DecodeResult got = decode(request.SerializeAsString(), &batch);
    EXPECT_EQ(got.request.isOk(), want.request.isOk());
    EXPECT_EQ(got.request.message(), want.request.message());
    EXPECT_EQ(got.rejected_profiles, want.rejected_profiles);
    EXPECT_EQ(got.profile_errors, want.profile_errors);
    EXPECT_TRUE(!want.request.isOk() || want.rejected_profiles > 0) << "the case must be invalid";
    if (got.request.isOk()) {
      EXPECT_EQ(batch.counts().profiles, countRequest(pruned).profiles);
    }
  }
}

}  // namespace
}  // namespace proflow::flat
