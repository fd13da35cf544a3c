// Configurations copied unchanged from the OpenTelemetry Collector's documentation, each run on a
// batch and checked for its effect.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/flat/flat_attributes.h"
#include "tests/core/ottl/ottl_test_util.h"
#include "tests/processors/transform/transform_test_util.h"

namespace proflow::processors::transform {
namespace {

using ::testing::ElementsAre;
using ottl::testing::profileAttr;
using ottl::testing::resourceAttr;
using ottl::testing::smallBatch;

std::vector<std::string> resourceKeys(const flat::Batch& b) {
  std::vector<std::string> out;
  for (const auto& kv : flat::Batch::slice(b.key_values, b.resources[0].attributes)) out.emplace_back(flat::keyOf(b, kv));
  return out;
}

// A batch whose resource carries the attributes the documentation's examples act on.
flat::Batch docBatch() {
  flat::Batch b = smallBatch();
  Harness setup(R"~(
profile_statements:
  - set(resource.attributes["host.name"], "h1")
  - set(resource.attributes["db.password"], "s3cret")
  - set(resource.attributes["service.version"], "1.2")
  - set(resource.attributes["kube_pod_name"], "p-1")
  - set(resource.attributes["http.route"], "/user/42/list/7")
  - set(resource.attributes["http.request.header.authorization"], "Bearer x")
)~");
  return setup.run(std::move(b));
}

// Source: opentelemetry-collector-contrib processor/transformprocessor/README.md, "Basic Config"
// (the whole example, trace/metric/log sections included: proflow accepts and ignores them).
TEST(TransformCollectorConfigs, ReadmeBasicConfig) {
  Harness h(R"~(
error_mode: ignore
trace_statements:
  - keep_keys(span.attributes, ["service.name", "service.namespace", "cloud.region", "process.command_line"])
  - replace_pattern(span.attributes["process.command_line"], "password\\=[^\\s]*(\\s?)", "password=***")
  - limit(span.attributes, 100, [])
  - truncate_all(span.attributes, 4096)
metric_statements:
  - keep_keys(resource.attributes, ["host.name"])
  - truncate_all(resource.attributes, 4096)
  - set(metric.description, "Sum") where metric.type == "Sum"
  - convert_sum_to_gauge() where metric.name == "system.processes.count"
  - convert_gauge_to_sum("cumulative", false) where metric.name == "prometheus_metric"
log_statements:
  - set(log.severity_text, "FAIL") where log.body == "request failed"
  - replace_all_matches(log.attributes, "/user/*/list/*", "/user/{userId}/list/{listId}")
  - replace_all_patterns(log.attributes, "value", "/account/\\d{4}", "/account/{accountId}")
  - set(log.body, log.attributes["http.route"])
profile_statements:
  - keep_keys(resource.attributes, ["host.name"])
  - set(profile.attributes["tag"], "profile#23")
  - set(profile.original_payload_format, "json")
)~");
  flat::Batch out = h.run(docBatch());
  EXPECT_THAT(resourceKeys(out), ElementsAre("host.name"));
  EXPECT_EQ(profileAttr(out, "tag"), "profile#23");
  EXPECT_EQ(out.view(out.profiles[0].original_payload_format), "json");
}

// Source: opentelemetry-collector-contrib pkg/ottl/ottlfuncs/README.md, the resource examples of
// delete_key, delete_matching_keys, keep_matching_keys, limit, truncate_all, replace_all_matches
// and replace_all_patterns ("$$1" as a Collector config file writes it).
TEST(TransformCollectorConfigs, OttlFuncsResourceExamples) {
  Harness h(R"~(
profile_statements:
  - delete_key(resource.attributes, "http.request.header.authorization")
  - delete_matching_keys(resource.attributes, "(?i).*password.*")
  - replace_all_matches(resource.attributes, "/user/*/list/*", "/user/{userId}/list/{listId}")
  - replace_all_patterns(resource.attributes, "key", "^kube_([0-9A-Za-z]+_)", "k8s.$$1.")
)~");
  flat::Batch out = h.run(docBatch());
  EXPECT_THAT(resourceKeys(out), ElementsAre("service.name", "env", "host.name", "service.version", "k8s.pod_.name",
                                             "http.route"));
  EXPECT_EQ(resourceAttr(out, "http.route"), "/user/{userId}/list/{listId}");

  Harness keep(R"~(
profile_statements:
  - keep_matching_keys(resource.attributes, "(?i).*version.*")
)~");
  EXPECT_THAT(resourceKeys(keep.run(docBatch())), ElementsAre("service.version"));

  Harness limit(R"~(
profile_statements:
  - limit(resource.attributes, 50, ["http.host", "http.method"])
  - limit(resource.attributes, 2, ["host.name"])
  - truncate_all(resource.attributes, 2)
)~");
  flat::Batch limited = limit.run(docBatch());
  EXPECT_THAT(resourceKeys(limited), ElementsAre("service.name", "host.name"));
  EXPECT_EQ(resourceAttr(limited, "host.name"), "h1");
  EXPECT_EQ(resourceAttr(limited, "service.name"), "ap");
}

// Source: opentelemetry-collector-contrib pkg/ottl/ottlfuncs/README.md, flatten's example map and
// its `prefix` form, `flatten(resource.attributes)` / `flatten(..., "k8s", 4)`-style calls.
TEST(TransformCollectorConfigs, OttlFuncsFlatten) {
  Harness h(R"~(
profile_statements:
  - 'set(resource.attributes["address"], {"street": "first", "house": 1234})'
  - set(resource.attributes["occupants"], ["user 1", "user 2"])
  - flatten(resource.attributes)
)~");
  flat::Batch out = h.run(smallBatch());
  EXPECT_THAT(resourceKeys(out),
              ElementsAre("service.name", "env", "address.street", "address.house", "occupants.0", "occupants.1"));
  EXPECT_EQ(resourceAttr(out, "occupants.1"), "user 2");
}

// Source: opentelemetry-collector-contrib processor/transformprocessor/README.md, "Advanced Config":
// groups with their own error_mode and conditions (the README's example is for metrics and logs;
// here the same shape over profiles).
TEST(TransformCollectorConfigs, AdvancedConfigShape) {
  Harness h(R"~(
error_mode: ignore
profile_statements:
  - context: resource
    error_mode: propagate
    conditions:
      - resource.attributes["service.name"] == "api"
    statements:
      - set(resource.attributes["team"], "core")
  - context: profile
    statements:
      - set(attributes["kind"], "cpu") where sample_type.type == "cpu"
)~");
  flat::Batch out = h.run(smallBatch());
  EXPECT_EQ(resourceAttr(out, "team"), "core");
  EXPECT_EQ(profileAttr(out, "kind"), "cpu");
}

}  // namespace
}  // namespace proflow::processors::transform

namespace proflow::processors::transform {
namespace {

flat::Batch resourceWith(const std::vector<std::pair<std::string, std::string>>& attrs) {
  otlp::Request r = ottl::testing::smallRequest();
  auto* resource = r.mutable_resource_profiles(0)->mutable_resource();
  resource->clear_attributes();
  for (const auto& [k, v] : attrs) {
    auto* kv = resource->add_attributes();
    kv->set_key(k);
    kv->mutable_value()->set_string_value(v);
  }
  return ottl::testing::toFlat(r);
}

// Source: opentelemetry-collector-contrib pkg/ottl/ottlfuncs/README.md
// (https://github.com/open-telemetry/opentelemetry-collector-contrib/blob/main/pkg/ottl/ottlfuncs/README.md),
// the examples of replace_pattern, set, replace_match and keep_keys unchanged, each in the profile
// context whose fields it names.
TEST(TransformCollectorConfigs, OttlFuncsEditorExamplesAtEveryLevel) {
  Harness h(R"~(
profile_statements:
  - context: resource
    statements:
      - replace_pattern(resource.attributes["process.command_line"], "password\\=[^\\s]*(\\s?)", "password=***")
  - context: profile
    statements:
      - set(attributes["http.path"], "/foo")
      - replace_match(attributes["http.target"], "/user/*/list/*", "/user/{userId}/list/{listId}")
  - context: sample
    statements:
      - set(attributes["http.path"], "/foo")
      - keep_keys(attributes, ["http.method", "http.path"])
)~");
  Harness setup(R"~(
profile_statements:
  - set(resource.attributes["process.command_line"], "app --password=s3cret --verbose")
  - set(profile.attributes["http.target"], "/user/42/list/7")
)~");
  flat::Batch out = h.run(setup.run(smallBatch()));
  EXPECT_EQ(resourceAttr(out, "process.command_line"), "app --password=***--verbose");
  EXPECT_EQ(profileAttr(out, "http.path"), "/foo");
  EXPECT_EQ(profileAttr(out, "http.target"), "/user/{userId}/list/{listId}");
  for (uint32_t row = 0; row < out.samples.size(); ++row) {
    EXPECT_EQ(ottl::testing::sampleAttr(out, "http.path", row), "/foo");
    EXPECT_EQ(ottl::testing::sampleAttr(out, "thread", row), "<absent>");  // keep_keys dropped it
  }
}

// Source: the profiles pipeline of a Collector Helm chart in the wild (tsuga-otel,
// profiling.config.default, `transform/host_processes`), unchanged.
TEST(TransformCollectorConfigs, HelmChartHostProcesses) {
  Harness h(R"~(
error_mode: ignore
profile_statements:
  - context: resource
    statements:
      - set(resource.attributes["service.name"], "containerd-shim") where IsMatch(resource.attributes["service.name"], "^containerd-shim-[0-9a-f]{64}$")
      - set(resource.attributes["service.name"], Concat(["unknown_service", resource.attributes["process.executable.name"]], ":")) where resource.attributes["service.name"] == nil and resource.attributes["process.executable.name"] != nil
)~");
  flat::Batch shim = h.run(resourceWith({{"service.name", "containerd-shim-" + std::string(64, 'a')}}));
  EXPECT_EQ(resourceAttr(shim, "service.name"), "containerd-shim");
  flat::Batch host = h.run(resourceWith({{"process.executable.name", "nginx"}}));
  EXPECT_EQ(resourceAttr(host, "service.name"), "unknown_service:nginx");
  flat::Batch named = h.run(resourceWith({{"service.name", "api"}, {"process.executable.name", "nginx"}}));
  EXPECT_EQ(resourceAttr(named, "service.name"), "api");
  EXPECT_EQ(h.metric("proflow_processor_transform_statement_errors_total"), 0);
}

// Source: the same chart's `transform/service_name`, rendered with serviceNameEnvVar = APP_NAME.
TEST(TransformCollectorConfigs, HelmChartServiceNameFromEnvironment) {
  Harness h(R"~(
error_mode: ignore
profile_statements:
  - context: resource
    statements:
      - set(resource.attributes["service.name"], resource.attributes["process.environment_variable.APP_NAME"]) where resource.attributes["process.environment_variable.APP_NAME"] != nil and resource.attributes["process.environment_variable.APP_NAME"] != ""
      - delete_key(resource.attributes, "process.environment_variable.APP_NAME")
)~");
  flat::Batch out = h.run(resourceWith({{"service.name", "java"}, {"process.environment_variable.APP_NAME", "billing"}}));
  EXPECT_EQ(resourceAttr(out, "service.name"), "billing");
  EXPECT_EQ(resourceAttr(out, "process.environment_variable.APP_NAME"), "<absent>");
  flat::Batch empty = h.run(resourceWith({{"service.name", "java"}, {"process.environment_variable.APP_NAME", ""}}));
  EXPECT_EQ(resourceAttr(empty, "service.name"), "java");
}

}  // namespace
}  // namespace proflow::processors::transform
