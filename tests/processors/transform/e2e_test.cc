// Through the daemon: OTLP/gRPC receiver -> transform processor -> file exporter. What a statement
// redacts (set over a value, delete_key, keep_keys) must be absent from the exported bytes, whether
// the value was inline or a reference into the dictionary.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "tests/support/dictionary_builder.h"
#include "tests/support/pipeline_output.h"
#include "tests/support/profile_builder.h"

namespace proflow {
namespace {

constexpr const char* kInlineSecret = "alice@secret.example";  // a sample attribute's inline value
constexpr const char* kSampleRefSecret = "tok-SECRET-42";      // a sample attribute's value by reference
constexpr const char* kResourceSecret = "res-SECRET-7";        // a resource attribute's value by reference

// One CPU profile whose samples carry user.email (inline) and session.token (reference) and whose
// resource carries secret.token, every resource attribute written by reference.
otlp::Request requestWithSecrets() {
  auto req = testing::makeRequest("checkout", {testing::makeProfile(3)});
  auto* kv = req.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
  kv->set_key("secret.token");
  kv->mutable_value()->set_string_value(kResourceSecret);
  testing::referenceResourceAttributes(&req);
  DictionaryBuilder b(req.mutable_dictionary());
  const int32_t email = b.stringAttribute("user.email", kInlineSecret);
  otlp::KeyValueAndUnit token;
  token.set_key_strindex(b.string("session.token"));
  token.mutable_value()->set_string_value_strindex(b.string(kSampleRefSecret));
  const int32_t token_index = b.attribute(token);
  const int32_t thread = b.stringAttribute("thread.name", "main");
  for (auto& s : *req.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->mutable_samples()) {
    s.add_attribute_indices(email);
    s.add_attribute_indices(token_index);
    s.add_attribute_indices(thread);
  }
  return req;
}

struct Redaction {
  std::string name, context;
  std::vector<std::string> statements;
  std::vector<std::string> secrets;  // what must not be exported
};

void PrintTo(const Redaction& r, std::ostream* os) { *os << r.name; }

class TransformRedactionE2E : public ::testing::TestWithParam<Redaction> {};

TEST_P(TransformRedactionE2E, RedactedValuesAreNotExported) {
  const Redaction& r = GetParam();
  std::string processors = "\n  transform:\n    error_mode: propagate\n    profile_statements:\n      - context: " +
                           r.context + "\n        statements:\n";
  for (const auto& s : r.statements) processors += "          - '" + s + "'\n";
  const std::string bytes = testing::exportedBytes(processors, "transform", requestWithSecrets());
  ASSERT_FALSE(bytes.empty());
  EXPECT_NE(bytes.find("checkout"), std::string::npos) << "the profile itself is exported";
  for (const auto& secret : r.secrets) EXPECT_EQ(bytes.find(secret), std::string::npos) << secret;
}

const std::vector<std::string> kSampleSecrets = {kInlineSecret, kSampleRefSecret};

INSTANTIATE_TEST_SUITE_P(
    Edits, TransformRedactionE2E,
    ::testing::Values(
        Redaction{"SampleSet", "sample",
                  {R"(set(attributes["user.email"], "redacted"))", R"(set(attributes["session.token"], "redacted"))"},
                  kSampleSecrets},
        Redaction{"SampleDeleteKey", "sample",
                  {R"(delete_key(attributes, "user.email"))", R"(delete_key(attributes, "session.token"))"},
                  kSampleSecrets},
        Redaction{"SampleKeepKeys", "sample", {R"(keep_keys(attributes, ["thread.name"]))"}, kSampleSecrets},
        Redaction{"ResourceSet", "resource", {R"(set(attributes["secret.token"], "redacted"))"}, {kResourceSecret}},
        Redaction{"ResourceDeleteKey", "resource", {R"(delete_key(attributes, "secret.token"))"}, {kResourceSecret}},
        Redaction{"ResourceKeepKeys", "resource", {R"(keep_keys(attributes, ["service.name"]))"}, {kResourceSecret}}),
    [](const ::testing::TestParamInfo<Redaction>& info) { return info.param.name; });

}  // namespace
}  // namespace proflow
