#include "core/formats/otlp_json/otlp_json.h"

#include <gtest/gtest.h>

#include "core/model/otlp_types.h"

namespace proflow::otlp_json {
namespace {

std::string bytes(std::initializer_list<int> b) {
  std::string s;
  for (int v : b) s.push_back(static_cast<char>(v));
  return s;
}

otlp::Request sampleRequest() {
  otlp::Request req;
  auto* dict = req.mutable_dictionary();
  dict->add_string_table("");
  dict->add_string_table("cpu");
  dict->add_string_table("nanoseconds");
  dict->add_link_table();  // zero value
  auto* link = dict->add_link_table();
  link->set_trace_id(bytes({0x5b, 0x8e, 0xff, 0xf7, 0x98, 0x03, 0x81, 0x03, 0xd2, 0x69, 0xb6, 0x33, 0x81, 0x3f, 0xc6, 0x0c}));
  link->set_span_id(bytes({0xee, 0xe1, 0x9b, 0x7e, 0xc3, 0xc1, 0xb1, 0x74}));
  auto* rp = req.add_resource_profiles();
  auto* kv = rp->mutable_resource()->add_attributes();
  kv->set_key("service.name");
  kv->mutable_value()->set_string_value("checkout");
  auto* p = rp->add_scope_profiles()->add_profiles();
  p->mutable_sample_type()->set_type_strindex(1);
  p->mutable_sample_type()->set_unit_strindex(2);
  p->set_time_unix_nano(1700000000123456789ULL);
  p->set_duration_nano(10000000000ULL);
  p->set_period(10000000);
  p->set_profile_id(bytes({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xff}));
  p->set_original_payload(bytes({0x1f, 0x8b, 0x08}));
  auto* s = p->add_samples();
  s->set_stack_index(1);
  s->set_link_index(1);
  s->add_values(9007199254740993LL);  // not representable as a double: must travel as a string
  s->add_timestamps_unix_nano(1700000000123456790ULL);
  return req;
}

TEST(OtlpJson, RoundTripWithHexIdsAnd64BitStrings) {
  otlp::Request req = sampleRequest();
  std::string json = toOtlpJson(req);
  EXPECT_NE(json.find("\"traceId\":\"5b8efff798038103d269b633813fc60c\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"spanId\":\"eee19b7ec3c1b174\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"profileId\":\"000102030405060708090a0b0c0d0eff\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"timeUnixNano\":\"1700000000123456789\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"values\":[\"9007199254740993\"]"), std::string::npos) << json;
  EXPECT_NE(json.find("\"resourceProfiles\""), std::string::npos);
  EXPECT_NE(json.find("\"stringTable\""), std::string::npos);
  EXPECT_EQ(json.find("resource_profiles"), std::string::npos);
  // Other bytes fields keep protobuf's base64.
  EXPECT_NE(json.find("\"originalPayload\":\"H4sI\""), std::string::npos) << json;

  otlp::Request back;
  Status s = parseOtlpJson(json, &back);
  ASSERT_TRUE(s.isOk()) << s.toString();
  EXPECT_EQ(back.SerializeAsString(), req.SerializeAsString());
  EXPECT_EQ(toOtlpJson(back), json);
}

TEST(OtlpJson, ParsesClientJsonWithUnknownFieldsNumbersAndUppercaseHex) {
  const char* json = R"({
    "resourceProfiles": [{
      "futureField": {"nested": [1, 2, {"x": null}]},
      "scopeProfiles": [{"profiles": [{
        "profileId": "000102030405060708090A0B0C0D0EFF",
        "timeUnixNano": 1700000000000000000,
        "period": "10000000",
        "unknownScalar": true
      }]}]
    }],
    "dictionary": {"linkTable": [{}, {"traceId": "5B8EFFF798038103D269B633813FC60C", "spanId": "EEE19B7EC3C1B174"}]},
    "zzz": "ignored"
  })";
  otlp::Request req;
  Status s = parseOtlpJson(json, &req);
  ASSERT_TRUE(s.isOk()) << s.toString();
  const auto& p = req.resource_profiles(0).scope_profiles(0).profiles(0);
  EXPECT_EQ(p.profile_id(), bytes({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xff}));
  EXPECT_EQ(p.time_unix_nano(), 1700000000000000000ULL);
  EXPECT_EQ(p.period(), 10000000);
  ASSERT_EQ(req.dictionary().link_table_size(), 2);
  EXPECT_EQ(req.dictionary().link_table(1).span_id(), bytes({0xee, 0xe1, 0x9b, 0x7e, 0xc3, 0xc1, 0xb1, 0x74}));
  EXPECT_EQ(req.dictionary().link_table(1).trace_id().size(), 16u);
}

TEST(OtlpJson, EmptyAndNullIdsAreAccepted) {
  otlp::Request req;
  ASSERT_TRUE(parseOtlpJson(R"({"dictionary":{"linkTable":[{"traceId":"","spanId":null}]}})", &req).isOk());
  EXPECT_EQ(req.dictionary().link_table(0).trace_id(), "");
  EXPECT_EQ(toOtlpJson(otlp::Request()), "{}");
}

TEST(OtlpJson, InvalidHexIsRejectedWithTheKeyAndPosition) {
  otlp::Request req;
  Status s = parseOtlpJson(R"({"dictionary":{"linkTable":[{"traceId":"5b8efff7zz"}]}})", &req);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("traceId must be a hex string, found 'z'"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("column 49"), std::string::npos) << s.message();
  s = parseOtlpJson(R"({"dictionary":{"linkTable":[{"spanId":"abc"}]}})", &req);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("even number of digits"), std::string::npos) << s.message();
  // A base64 id (what a plain protobuf JSON encoder would send) is not hex.
  s = parseOtlpJson(R"({"resourceProfiles":[{"scopeProfiles":[{"profiles":[{"profileId":"AAECAwQ="}]}]}]})", &req);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("profileId"), std::string::npos) << s.message();
}

TEST(OtlpJson, InvalidJsonNamesLineColumnAndOffset) {
  otlp::Request req;
  Status s = parseOtlpJson("{\n  \"resourceProfiles\": [\n    }\n", &req);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("line 3, column 5 (offset 30)"), std::string::npos) << s.message();
  for (const char* bad : {"", "{", "{\"a\" 1}", "[1,]", "{\"a\":tru}", "{\"a\":\"unterminated}", "{} {}",
                          "{\"a\":01.}", "{\"a\":-}"}) {
    s = parseOtlpJson(bad, &req);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find("offset"), std::string::npos) << bad << ": " << s.message();
  }
  std::string deep(200, '[');
  EXPECT_NE(parseOtlpJson(deep, &req).message().find("nesting"), std::string::npos);
}

TEST(OtlpJson, WrongTypesAreRejectedByProtobuf) {
  otlp::Request req;
  Status s = parseOtlpJson(R"({"resourceProfiles": "not an array"})", &req);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("invalid OTLP/JSON"), std::string::npos) << s.message();
}

TEST(OtlpJson, RewriteLeavesOtherStringsAndEscapesAlone) {
  std::string out;
  const char* in = R"({"key":"traceId","value":{"stringValue":"a\"traceId\":\"zz"},"spanId":"0aff"})";
  ASSERT_TRUE(rewriteIds(in, true, &out).isOk());
  EXPECT_EQ(out, R"({"key":"traceId","value":{"stringValue":"a\"traceId\":\"zz"},"spanId":"Cv8="})");
  std::string back;
  ASSERT_TRUE(rewriteIds(out, false, &back).isOk());
  EXPECT_EQ(back, in);
}

}  // namespace
}  // namespace proflow::otlp_json
