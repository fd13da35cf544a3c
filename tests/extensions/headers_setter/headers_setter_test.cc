// The headers_setter extension's rules on a request's headers: values from config and from the
// request metadata (with default_value), the four actions against the exporter's own headers, and
// its config errors (the Collector README's example loads).
#include <gtest/gtest.h>

#include "extensions/headers_setter/headers_setter.h"
#include "tests/receivers/otlp/service_harness.h"

namespace proflow::extensions::headers_setter {
namespace {

HeaderConfig rule(std::string key, std::string action, std::optional<std::string> value,
                  std::optional<std::string> from_context = std::nullopt,
                  std::optional<std::string> default_value = std::nullopt) {
  HeaderConfig h;
  h.key = std::move(key);
  h.action = std::move(action);
  h.value = std::move(value);
  h.from_context = std::move(from_context);
  h.default_value = std::move(default_value);
  return h;
}

auth::HeaderList edited(const HeadersSetter& setter, const ClientMetadata* context, auth::HeaderList headers) {
  setter.editRequestHeaders(context, headers);
  return headers;
}

TEST(HeadersSetter, TakesValuesFromTheRequestMetadataOrTheirDefault) {
  HeadersSetterConfig c;
  c.headers = {rule("X-Scope-OrgID", "upsert", std::nullopt, "x-scope-orgid", "anonymous"),
               rule("X-Team", "upsert", std::nullopt, "team")};
  HeadersSetter setter(CreateSettings{}, c);
  ClientMetadata acme;
  acme.add("X-Scope-OrgID", "acme");
  acme.add("Team", "payments");
  EXPECT_EQ(edited(setter, &acme, {}), (auth::HeaderList{{"x-scope-orgid", "acme"}, {"x-team", "payments"}}));
  // Without the key: the default, or nothing when there is none.
  EXPECT_EQ(edited(setter, nullptr, {}), (auth::HeaderList{{"x-scope-orgid", "anonymous"}}));
}

TEST(HeadersSetter, ActionsWorkOnTheExportersOwnHeaders) {
  HeadersSetterConfig c;
  c.headers = {rule("a", "insert", "new"), rule("b", "update", "new"), rule("c", "update", "new"),
               rule("d", "upsert", "new"), rule("e", "delete", std::nullopt)};
  HeadersSetter setter(CreateSettings{}, c);
  const auth::HeaderList own = {{"a", "old"}, {"b", "old"}, {"e", "old"}};
  EXPECT_EQ(edited(setter, nullptr, own), (auth::HeaderList{{"a", "old"}, {"b", "new"}, {"d", "new"}}));
  const auth::HeaderList none;
  EXPECT_EQ(edited(setter, nullptr, none), (auth::HeaderList{{"a", "new"}, {"d", "new"}}));
}

TEST(HeadersSetterConfig, TheCollectorsExampleLoadsAndMistakesAreNamed) {
  // From the Collector's headers_setter README (signal renamed to profiles).
  EXPECT_EQ(testing::configErrors(R"(
extensions:
  headers_setter:
    headers:
      - action: insert
        key: X-Scope-OrgID
        from_context: tenant_id
      - action: upsert
        key: User-ID
        value: user_id
      - action: update
        key: User-ID
        value: user_id
      - action: delete
        key: Some-Header
receivers:
  otlp: { protocols: { http: { include_metadata: true } } }
exporters:
  otlp_grpc: { endpoint: "127.0.0.1:4317", auth: { authenticator: headers_setter } }
service:
  extensions: [headers_setter]
  pipelines: { profiles: { receivers: [otlp], exporters: [otlp_grpc] } }
)"), "");
  const std::string errors = testing::configErrors(R"(
extensions:
  headers_setter:
    headers:
      - { key: a, value: x, from_context: y }
      - { key: "b c", value: x }
      - { key: d, action: replace, value: x }
      - { key: e, action: delete, value: x }
      - { key: f, value: x, default_value: z }
receivers: { otlp: { protocols: { grpc: {} } } }
exporters: { debug: {} }
service:
  extensions: [headers_setter]
  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }
)", "h.yaml");
  EXPECT_NE(errors.find("headers[0]: set either value or from_context"), std::string::npos) << errors;
  EXPECT_NE(errors.find("headers[1].key: 'b c' is not a valid header name"), std::string::npos) << errors;
  EXPECT_NE(errors.find("headers[2].action: unknown action 'replace'"), std::string::npos) << errors;
  EXPECT_NE(errors.find("headers[3]: a delete takes neither value nor from_context"), std::string::npos) << errors;
  EXPECT_NE(errors.find("headers[4].default_value: applies only with from_context"), std::string::npos) << errors;
  EXPECT_NE(errors.find("h.yaml:"), std::string::npos) << errors;
}

}  // namespace
}  // namespace proflow::extensions::headers_setter
