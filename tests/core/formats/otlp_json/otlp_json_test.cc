// OTLP/JSON straight from and to the flat batch, held to protobuf's JSON mapping (the reference in
// tests/support/otlp_json_protobuf.h): the flat tests' corpus printed by protobuf reads back into the
// same request and prints back byte for byte; the mapping's spellings; refusals naming field and byte;
// the bounds and the claim.
#include "core/formats/otlp_json/otlp_json.h"

#include <gtest/gtest.h>

#include "tests/support/flat_request.h"
#include "core/flat/flat_encode.h"
#include "core/model/otlp_types.h"
#include "tests/core/flat/test_requests.h"
#include "tests/support/otlp_json_protobuf.h"

namespace proflow::otlp_json {
namespace {

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int v : b) s.push_back(static_cast<char>(v));
  return s;
}

// Decodes `json` and returns the request it means (its flat encoding parsed by protobuf).
otlp::Request decodeToRequest(std::string_view json) {
  flat::Batch batch;
  DecodeResult r = otlp_json::decode(json, &batch);
  EXPECT_TRUE(r.status.isOk()) << r.status.toString();
  otlp::Request req;
  EXPECT_TRUE(req.ParseFromString(flat::encode(batch)));
  return req;
}

TEST(OtlpJson, TheCorpusReadsBackAndPrintsAsProtobufPrintsIt) {
  for (const auto& [name, request] : flat::testing::corpus()) {
    SCOPED_TRACE(name);
    const std::string printed = otlp_json_pb::toOtlpJson(request);  // what a client sends
    flat::Batch batch;
    DecodeResult r = otlp_json::decode(printed, &batch);
    ASSERT_TRUE(r.status.isOk()) << r.status.toString();
    EXPECT_TRUE(flat::encode(batch) == request.SerializeAsString());  // the same request
    const std::string ours = otlp_json::encode(batch);
    EXPECT_EQ(ours.size(), printed.size());
    EXPECT_TRUE(ours == printed);  // byte for byte
  }
}

TEST(OtlpJson, HexIds64BitStringsAndBase64) {
  otlp::Request req;
  auto* dict = req.mutable_dictionary();
  dict->add_string_table("");
  dict->add_link_table();
  auto* link = dict->add_link_table();
  link->set_trace_id(bytes({0x5b, 0x8e, 0xff, 0xf7, 0x98, 0x03, 0x81, 0x03, 0xd2, 0x69, 0xb6, 0x33, 0x81, 0x3f, 0xc6, 0x0c}));
  link->set_span_id(bytes({0xee, 0xe1, 0x9b, 0x7e, 0xc3, 0xc1, 0xb1, 0x74}));
  auto* p = req.add_resource_profiles()->add_scope_profiles()->add_profiles();
  p->set_time_unix_nano(1700000000123456789ULL);
  p->set_profile_id(bytes({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xff}));
  p->set_original_payload(bytes({0x1f, 0x8b, 0x08}));
  p->add_samples()->add_values(9007199254740993LL);  // not a double: travels as a string
  flat::Batch batch;
  ASSERT_TRUE(flat::fromRequest(req, &batch).isOk());
  const std::string json = otlp_json::encode(batch);
  for (const char* want : {"\"traceId\":\"5b8efff798038103d269b633813fc60c\"", "\"spanId\":\"eee19b7ec3c1b174\"",
                           "\"profileId\":\"000102030405060708090a0b0c0d0eff\"", "\"timeUnixNano\":\"1700000000123456789\"",
                           "\"values\":[\"9007199254740993\"]", "\"originalPayload\":\"H4sI\""})
    EXPECT_NE(json.find(want), std::string::npos) << want << "\n" << json;
  EXPECT_EQ(json, otlp_json_pb::toOtlpJson(req));
}

TEST(OtlpJson, ReadsEverySpellingProtobufReads) {
  const char* json = R"({
    "resource_profiles": {"futureField": {"nested": [1, 2, {"x": null}]},
      "scopeProfiles": [null, {"profiles": [{
        "profile_id": "000102030405060708090A0B0C0D0EFF", "timeUnixNano": 1700000000000000000,
        "period": "+010", "durationNano": 1e3, "unknownScalar": true, "sampleType": null,
        "samples": [{"values": ["1", 2, -3.0], "stackIndex": "7"}]}]}]},
    "dictionary": {"linkTable": [{}, {"traceId": "5B8EFFF798038103D269B633813FC60C", "span_id": ""}],
      "stringTable": "only", "attributeTable": [{"value": {"boolValue": "true"}}, {"value": {"boolValue": "tRue"}}, {"value": {"boolValue": "N"}}, {"value": {"doubleValue": "NaN"}},
      {"value": {"bytesValue": "AQ-_"}}, {"value": {"stringValue": null}}, {"value": null}]},
    "zzz": "ignored"})";
  const otlp::Request req = decodeToRequest(json);
  otlp::Request want;
  ASSERT_TRUE(otlp_json_pb::parseOtlpJson(json, &want).isOk());
  EXPECT_TRUE(req.SerializeAsString() == want.SerializeAsString()) << req.DebugString() << "\n" << want.DebugString();
  const auto& p = req.resource_profiles(0).scope_profiles(0).profiles(0);  // the null scope is skipped
  EXPECT_EQ(p.profile_id(), bytes({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xff}));
  EXPECT_EQ(p.period(), 10);
  EXPECT_EQ(p.duration_nano(), 1000u);
  EXPECT_FALSE(p.has_sample_type());
  EXPECT_EQ(p.samples(0).values(2), -3);
  EXPECT_EQ(req.dictionary().string_table(0), "only");
}

TEST(OtlpJson, RefusalsNameTheFieldAndTheByte) {
  flat::Batch batch;
  auto refused = [&](const std::string& json, const std::string& words) {
    DecodeResult r = otlp_json::decode(json, &batch);
    EXPECT_EQ(r.status.code(), StatusCode::kInvalidArgument) << json;
    EXPECT_NE(r.status.message().find(words), std::string::npos) << r.status.message();
    EXPECT_TRUE(batch.resources.empty() && batch.strings.empty());
  };
  refused(R"({"dictionary":{"linkTable":[{"traceId":"5b8efff7zz"}]}})", "Link.traceId: must be a hex string, found 'z' at byte 51");
  refused(R"({"dictionary":{"linkTable":[{"spanId":"abc"}]}})", "even number of digits");
  refused(R"({"resourceProfiles":[{"scopeProfiles":[{"profiles":[{"profileId":"AAECAwQ="}]}]}]})", "Profile.profileId");
  refused(R"({"dictionary":{"mappingTable":[{"memoryStart":-1}]}})", "Mapping.memoryStart: invalid integer -1");
  refused(R"({"dictionary":{"mappingTable":[{"filenameStrindex":2147483648}]}})", "Mapping.filenameStrindex");
  refused(R"({"dictionary":{"mappingTable":[{"filenameStrindex":1.5}]}})", "Mapping.filenameStrindex");
  refused(R"({"dictionary":{"stringTable":[1]}})", "ProfilesDictionary.stringTable: expected a string, found 1");
  refused(R"({"dictionary":{"attributeTable":[{"value":{"stringValue":"a","intValue":3}}]}})", "already set");
  refused(R"({"dictionary":{"attributeTable":[{"value":{"bytesValue":"A"}}]}})", "expected base64 bytes");
  refused(R"({"dictionary":{"attributeTable":[{"value":{"bytesValue":"AQ2="}}]}})", "expected base64 bytes");  // stray bits
  refused(R"({"dictionary":{"":1}})", "ProfilesDictionary: a field name is empty");
  refused(R"({"resourceProfiles": "not an array"})", "ResourceProfiles: expected an object");
  refused("[]", "the document is not a JSON object");
  refused("{\n  \"resourceProfiles\": [\n    }\n", "invalid OTLP/JSON: unexpected character '}', expected a value at byte 30");
  refused(std::string(200, '['), "not a JSON object");
  refused("{\"a\":" + std::string(200, '[') + std::string(200, ']') + "}", "nesting deeper than 100");
  refused("{\"x\":1} {}", "data after");
}

TEST(OtlpJson, NestedValuesKeepProtobufsEncoding) {
  const char* json = R"({"dictionary":{"attributeTable":[{"value":{"kvlistValue":{"values":[
      {"key":"a","value":{"arrayValue":{"values":[{"intValue":"-1"},{},{"stringValueStrindex":3},
        {"doubleValue":0.5},{"boolValue":false}]}}},{"keyStrindex":2}]}}}]}})";
  const otlp::Request req = decodeToRequest(json);
  otlp::Request want;
  ASSERT_TRUE(otlp_json_pb::parseOtlpJson(json, &want).isOk());
  EXPECT_TRUE(req.SerializeAsString() == want.SerializeAsString()) << req.DebugString();
  flat::Batch batch;
  ASSERT_TRUE(otlp_json::decode(json, &batch).status.isOk());
  EXPECT_TRUE(batch.attributes[0].value.nested_refs);
  EXPECT_EQ(otlp_json::encode(batch), otlp_json_pb::toOtlpJson(want));
}

TEST(OtlpJson, ValuesAreCountedAndTheClaimStopsTheDecode) {
  // Resources with a schema URL: a document of empty ones is refused for its size (below).
  std::string json = R"({"resourceProfiles":[)";
  for (int i = 0; i < 100'000; ++i) json += i ? R"(,{"schemaUrl":"s"})" : R"({"schemaUrl":"s"})";
  json += "]}";
  flat::Batch batch;
  DecodeLimits limits;
  limits.max_values = 50'000;
  DecodeResult r = otlp_json::decode(json, &batch, limits);
  EXPECT_NE(r.status.message().find("more than 50000 values"), std::string::npos) << r.status.message();

  size_t largest = 0;
  limits = {};
  limits.claim = [&](size_t bytes) {
    largest = std::max(largest, bytes);
    return bytes > (1u << 20) ? Status::exhausted("over the budget") : Status::ok();
  };
  r = otlp_json::decode(json, &batch, limits);
  EXPECT_EQ(r.status.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(r.status.message(), "over the budget");
  EXPECT_GT(largest, 1u << 20);
  limits.claim = [&](size_t bytes) { return largest = bytes, Status::ok(); };
  r = otlp_json::decode(json, &batch, limits);
  ASSERT_TRUE(r.status.isOk());
  EXPECT_EQ(batch.resources.size(), 100'000u);
  EXPECT_EQ(largest, 2 * batch.memoryBytes());  // the last claim: what the batch holds, and its next growth
}

// A document of empty messages decodes into up to ~64 bytes of memory per byte: it is refused once
// it has been read far enough to tell, having built little, whatever the claim would allow.
TEST(OtlpJson, ADocumentDecodingIntoFarMoreThanItsSizeIsRefusedEarly) {
  std::string json = R"({"resourceProfiles":[{"scopeProfiles":[{"profiles":[)";
  constexpr int kProfiles = 500'000;
  for (int i = 0; i < kProfiles; ++i) json += i ? ",{}" : "{}";
  json += "]}]}]}";
  size_t largest = 0;
  DecodeLimits limits;
  limits.claim = [&](size_t bytes) { return largest = std::max(largest, bytes), Status::ok(); };
  flat::Batch batch;
  DecodeResult r = otlp_json::decode(json, &batch, limits);
  EXPECT_EQ(r.status.code(), StatusCode::kPayloadTooLarge) << r.status.toString();
  EXPECT_NE(r.status.message().find("bytes of memory per byte"), std::string::npos) << r.status.message();
  // Refused near its start: what was built stays far below the ~100 MiB the whole would take.
  EXPECT_LT(largest, size_t{4} << 20);
}

// The receiver's bound on what a request may decode into (dense small values are honest JSON of
// ~4 bytes of memory per byte, within the per-byte bound): refused as decoding reaches it.
TEST(OtlpJson, MaxMemoryRefusesTheDecodeWhenItGetsThere) {
  std::string json = R"({"resourceProfiles":[{"scopeProfiles":[{"profiles":[{"samples":[{"stackIndex":1,"values":[)";
  for (int i = 0; i < 1'000'000; ++i) json += i ? ",0" : "0";
  json += "]}]}]}]}]}";
  DecodeLimits limits;
  limits.max_memory = 4u << 20;
  limits.max_memory_key = "4 x max_request_body_size";
  size_t largest = 0;
  limits.claim = [&](size_t bytes) { return largest = std::max(largest, bytes), Status::ok(); };
  flat::Batch batch;
  DecodeResult r = otlp_json::decode(json, &batch, limits);
  EXPECT_EQ(r.status.code(), StatusCode::kPayloadTooLarge) << r.status.toString();
  EXPECT_NE(r.status.message().find("(4 x max_request_body_size)"), std::string::npos) << r.status.message();
  EXPECT_LE(largest, limits.max_memory);
  limits.max_memory = 0;  // the same document within the per-byte bound alone
  EXPECT_TRUE(otlp_json::decode(json, &batch, limits).status.isOk());
}

TEST(OtlpJson, ResponsesAsProtobufPrintsThem) {
  EXPECT_EQ(encodeResponse(0, "", false), "{}");
  EXPECT_EQ(encodeResponse(0, "", true), "{\"partialSuccess\":{}}");
  otlp::Response response;
  response.mutable_partial_success()->set_rejected_profiles(3);
  response.mutable_partial_success()->set_error_message("bad <profile>");
  EXPECT_EQ(encodeResponse(3, "bad <profile>", true), otlp_json_pb::toOtlpJson(response));
  int64_t rejected = 0;
  std::string message;
  ASSERT_TRUE(decodeResponse(otlp_json_pb::toOtlpJson(response), &rejected, &message));
  EXPECT_EQ(rejected, 3);
  EXPECT_EQ(message, "bad <profile>");
  ASSERT_TRUE(decodeResponse("{}", &rejected, &message));
  EXPECT_EQ(rejected, 0);
  EXPECT_FALSE(decodeResponse("not json", &rejected, &message));
  EXPECT_EQ(encodeRpcStatus(3, "no \"profiles\""), R"({"code":3,"message":"no \"profiles\""})");
}

}  // namespace
}  // namespace proflow::otlp_json
