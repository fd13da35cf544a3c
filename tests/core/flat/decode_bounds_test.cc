// The decoder's cost follows its input: bodies that split repeated fields or send list values in
// many parts (valid requests, which protobuf parses in linear time) decode within
// kMaxDecodeBytesPerWireByte of memory per body byte, read the same meaning as protobuf, and every
// byte allocated is first charged to the caller's claim.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "core/model/otlp_types.h"
#include "tests/support/hostile_otlp.h"

namespace proflow::flat {
namespace {

size_t memoryBound(const std::string& body) { return kMaxDecodeBytesPerWireByte * body.size() + kDecodeBytesBase; }

// Decodes `body` structurally (no validation), recording every claim.
struct Decoded {
  Batch batch;
  DecodeResult result;
  std::vector<size_t> claims;
};
Decoded decodeClaimed(const std::string& body) {
  Decoded d;
  DecodeOptions options;
  options.validate = false;
  options.claim_memory = [&d](size_t bytes) {
    d.claims.push_back(bytes);
    return Status::ok();
  };
  d.result = decode(body, &d.batch, options);
  return d;
}

// The decode's memory stays within the bound, and the batch holds no more than was claimed.
void expectBounded(const Decoded& d, const std::string& body) {
  ASSERT_TRUE(d.result.request.isOk()) << d.result.request.message();
  ASSERT_FALSE(d.claims.empty());
  EXPECT_TRUE(std::is_sorted(d.claims.begin(), d.claims.end()));
  EXPECT_EQ(d.result.peak_memory_bytes, d.claims.back());
  EXPECT_LE(d.result.peak_memory_bytes, memoryBound(body)) << body.size() << " body bytes";
  EXPECT_LE(d.batch.memoryBytes() - sizeof(Batch), d.result.peak_memory_bytes);
  EXPECT_LE(d.batch.arena.size(), body.size());
  ::testing::Test::RecordProperty("peak_bytes_per_body_byte", std::to_string(d.result.peak_memory_bytes / body.size()));
}

// The batch means what protobuf reads from the same bytes.
void expectProtobufMeaning(const Batch& batch, const std::string& body) {
  otlp::Request want, got;
  ASSERT_TRUE(want.ParseFromString(body));
  ASSERT_TRUE(got.ParseFromString(encode(batch)));
  EXPECT_EQ(got.SerializeAsString(), want.SerializeAsString());
}

// Decoded within the bound, meaning what protobuf reads.
Decoded boundedDecode(const std::string& body) {
  Decoded d = decodeClaimed(body);
  expectBounded(d, body);
  expectProtobufMeaning(d.batch, body);
  return d;
}

TEST(FlatDecodeBounds, FieldsSplitByAnotherOfTheirColumnDecodeInLinearMemory) {
  // ~448 KB: 74,667 profile attribute indices each followed by a sample with one of its own.
  const std::string split_profile = testing::interleavedProfileAttributes(74667);
  ASSERT_GT(split_profile.size(), 440000u);
  const Decoded p = boundedDecode(split_profile);
  ASSERT_EQ(p.batch.profiles.size(), 1u);
  EXPECT_EQ(p.batch.profiles[0].attributes.size, 74667u);
  EXPECT_EQ(p.batch.samples.size(), 74667u);
  // Indices: one per profile attribute and one per sample, nothing copied twice.
  EXPECT_EQ(p.batch.indices.size(), 2u * 74667u);

  // A Resource sent again after each scope: its attributes and the scopes' share a column.
  const Decoded r = boundedDecode(testing::interleavedResourceAttributes(20000));
  ASSERT_EQ(r.batch.resources.size(), 1u);
  EXPECT_EQ(r.batch.resources[0].attributes.size, 20000u);
  EXPECT_EQ(r.batch.key_values.size(), 2u * r.batch.scopes.size());
}

TEST(FlatDecodeBounds, ArrayValueSentInManyPartsIsCopiedOnce) {
  // 64,000 parts: ~384 KB, about 3 KB once gzipped.
  const std::string body = testing::repeatedArrayValue(64000);
  const Decoded d = boundedDecode(body);
  ASSERT_EQ(d.batch.attributes.size(), 2u);
  const Value& v = d.batch.attributes[1].value;
  EXPECT_EQ(v.kind, ValueKind::kArray);
  EXPECT_EQ(v.bytes.size, 64000u * 4u);  // the parts' entries, once
}

TEST(FlatDecodeBounds, KeyValueWhoseKeyAndListValueAlternateIsCopiedOnce) {
  const std::string body = testing::keyValueSentInParts(40000);
  const Decoded d = boundedDecode(body);
  ASSERT_EQ(d.batch.key_values.size(), 1u);
  EXPECT_EQ(d.batch.view(d.batch.key_values[0].key), "key");
  EXPECT_EQ(d.batch.key_values[0].value.kind, ValueKind::kKvList);
}

TEST(FlatDecodeBounds, SmallSplitBodiesReadAsProtobufDoes) {
  for (int n : {1, 2, 3, 17}) {
    for (const std::string& body :
         {testing::interleavedProfileAttributes(n), testing::interleavedResourceAttributes(n),
          testing::repeatedArrayValue(n), testing::keyValueSentInParts(n)}) {
      const Decoded d = decodeClaimed(body);
      ASSERT_TRUE(d.result.request.isOk()) << d.result.request.message();
      expectProtobufMeaning(d.batch, body);
    }
  }
}

TEST(FlatDecodeBounds, ARefusedClaimStopsDecodingWithItsOwnStatus) {
  const std::string body = testing::interleavedProfileAttributes(20000);
  const size_t cap = 256u << 10;
  size_t most = 0;
  DecodeOptions options;
  options.claim_memory = [&](size_t bytes) {
    if (bytes > cap) return Status::exhausted("in-flight budget full");
    most = std::max(most, bytes);
    return Status::ok();
  };
  Batch batch;
  const DecodeResult r = decode(body, &batch, options);
  EXPECT_EQ(r.request.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(r.request.message(), "in-flight budget full");
  EXPECT_LE(most, cap);
  EXPECT_TRUE(batch.indices.empty() && batch.profiles.empty());  // nothing half-decoded is left
}

TEST(FlatDecodeBounds, EveryAllocationIsClaimedBeforeItIsMade) {
  // What the batch holds after decoding never exceeds what was claimed, for ordinary requests too.
  const std::string body = testing::interleavedProfileAttributes(3) + testing::repeatedArrayValue(5) +
                           testing::interleavedResourceAttributes(4);
  const Decoded d = decodeClaimed(body);
  ASSERT_TRUE(d.result.request.isOk()) << d.result.request.message();
  EXPECT_LE(d.batch.memoryBytes() - sizeof(Batch), d.result.peak_memory_bytes);
  EXPECT_LE(d.result.peak_memory_bytes, memoryBound(body));
}

}  // namespace
}  // namespace proflow::flat
