// The OpenTelemetry Collector as an oracle for proflow's processors that take the Collector's config
// shape: the same processor block runs in both, each fed the same recordings of several producers,
// and what the two write must mean the same (expanded_samples.h).
#include <gtest/gtest.h>

#include "tests/e2e/expanded_samples.h"
#include "tests/e2e/otelcol_peer.h"
#include "tests/e2e/otlp_client.h"
#include "tests/e2e/producer_fixtures.h"
#include "tests/support/dictionary_builder.h"
#include "tests/support/machine_permits.h"
#include "tests/support/otlp_files.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;
using testing::freePort;

struct ProcessorCase {
  std::string name;
  std::string processor;  // `processors:` entry, indented by two spaces, in both implementations' syntax
};

void PrintTo(const ProcessorCase& c, std::ostream* os) { *os << c.name; }

void inlineReferences(otlp::AnyValue* v, const otlp::Dictionary& dict);

// Resource and scope attributes keyed by reference (`key_strindex`, `string_value_strindex`) spelled
// inline. The Collector's processors (pdata's attribute maps, v0.161.0) see only inline keys: to them
// a referenced `service.name` is absent, which proflow's processors do not follow.
void inlineReferences(google::protobuf::RepeatedPtrField<otlp::KeyValue>* kvs, const otlp::Dictionary& dict) {
  for (auto& kv : *kvs) {
    if (kv.key_strindex() != 0) {
      kv.set_key(std::string(dictString(dict, kv.key_strindex())));
      kv.clear_key_strindex();
    }
    if (kv.has_value()) inlineReferences(kv.mutable_value(), dict);
  }
}

void inlineReferences(otlp::AnyValue* v, const otlp::Dictionary& dict) {
  if (v->value_case() == otlp::AnyValue::kStringValueStrindex)
    v->set_string_value(std::string(dictString(dict, v->string_value_strindex())));
  else if (v->has_array_value())
    for (auto& item : *v->mutable_array_value()->mutable_values()) inlineReferences(&item, dict);
  else if (v->has_kvlist_value())
    inlineReferences(v->mutable_kvlist_value()->mutable_values(), dict);
}

otlp::Request withInlineAttributes(otlp::Request request) {
  const otlp::Dictionary& dict = request.dictionary();
  for (auto& rp : *request.mutable_resource_profiles()) {
    inlineReferences(rp.mutable_resource()->mutable_attributes(), dict);
    for (auto& sp : *rp.mutable_scope_profiles()) inlineReferences(sp.mutable_scope()->mutable_attributes(), dict);
  }
  return request;
}

// One implementation: the test's requests in, the processor, a file of size-prefixed ProfilesData out.
std::string config(int in_port, const std::string& processor, const std::string& file_exporter,
                   const std::string& telemetry) {
  const std::string type = processor.substr(2, processor.find(':') - 2);
  return "receivers:\n  otlp: { protocols: { grpc: { endpoint: 127.0.0.1:" + std::to_string(in_port) +
         " } } }\nprocessors:\n" + processor + "exporters:\n  " + file_exporter + "\nservice:\n  telemetry: " +
         telemetry + "\n  pipelines:\n    profiles: { receivers: [otlp], processors: [" + type +
         "], exporters: [file] }\n";
}

class OtelcolOracle : public ::testing::TestWithParam<ProcessorCase> {};

TEST_P(OtelcolOracle, ProflowProcessesEveryProducersProfilesAsTheCollectorDoes) {
  std::string refused;
  const std::string collector_binary = testing::otelcolPeer(&refused);
  PROFLOW_SKIP_IF_REFUSED(refused);
  ASSERT_FALSE(collector_binary.empty());

  testing::TempDir dir;
  const int proflow_in = freePort(), collector_in = freePort(), metrics = freePort();
  const std::string proflow_out = dir.file("proflow.binpb"), collector_out = dir.file("collector.binpb");
  testing::Daemon proflow(
      {"--config",
       dir.write("proflow.yaml",
                 config(proflow_in, GetParam().processor,
                        "file: { path: " + proflow_out + ", format: otlp_proto, flush_interval: 0 }",
                        "{ metrics: { address: 127.0.0.1:" + std::to_string(metrics) + " } }"))},
      dir.file("proflow.log"));
  auto collector = testing::startOtelcol(
      collector_binary,
      dir.write("collector.yaml",
                config(collector_in, GetParam().processor,
                       "file: { path: " + collector_out + ", format: proto, flush_interval: 100ms }",
                       "{ metrics: { level: none } }")),
      dir.file("collector.log"));
  auto logs = [&] { return "--- proflow:\n" + proflow.log() + "\n--- Collector:\n" + collector->log(); };
  ASSERT_TRUE(proflow.waitHealthy(metrics) && testing::waitOtelcolReady(*collector)) << logs();

  size_t proflow_seen = 0, collector_seen = 0;
  bool changed_any = false;  // else agreeing would prove nothing
  // The records a file gained since `seen`, once their expansion stops growing.
  auto gained = [](const std::string& file, size_t* seen) {
    std::vector<otlp::Request> records;
    size_t last = SIZE_MAX;
    testing::waitFor([&] {
      records = testing::readOtlpProtoFileSoFar(file);
      const size_t now = records.size();
      const bool settled = now > *seen && now == last;
      last = now;
      return settled;
    }, 10s);
    std::vector<otlp::Request> fresh(records.begin() + static_cast<ptrdiff_t>(std::min(*seen, records.size())),
                                     records.end());
    *seen = records.size();
    return testing::expandSamples(fresh);
  };
  for (const auto& fixture : testing::producerFixtures()) {
    SCOPED_TRACE(fixture.name);
    const otlp::Request request = withInlineAttributes(fixture.request);
    const grpc::Status to_proflow = testing::exportTo(proflow_in, request, 30s);
    const grpc::Status to_collector = testing::exportTo(collector_in, request, 30s);
    ASSERT_TRUE(to_proflow.ok() && to_collector.ok())
        << to_proflow.error_message() << " / " << to_collector.error_message() << "\n" << logs();
    const std::vector<std::string> by_collector = gained(collector_out, &collector_seen);
    const std::vector<std::string> by_proflow = gained(proflow_out, &proflow_seen);
    changed_any |= by_collector != testing::expandSamples(request);
    EXPECT_EQ(testing::expansionDifference(by_collector, by_proflow), "")
        << "(\"sent\" is the Collector's output, \"received\" proflow's)\n" << logs();
  }
  EXPECT_TRUE(changed_any) << "the processor changed none of the recordings";
}

INSTANTIATE_TEST_SUITE_P(
    Processors, OtelcolOracle,
    ::testing::Values(
        ProcessorCase{"resource", R"(  resource:
    attributes:
      - { key: deployment.environment, value: production, action: insert }
      - { key: service.name, pattern: '^(?P<language>[a-z]+)-', action: extract }
      - { key: service.name, value: renamed, action: update }
      - { key: tier, from_attribute: service.name, action: upsert }
      - { key: host.name, action: delete }
      - { key: tier, action: hash }
)"},
        ProcessorCase{"transform", R"(  transform:
    error_mode: ignore
    profile_statements:
      - context: resource
        statements:
          - set(attributes["team"], "profiling")
          - delete_key(attributes, "host.name")
      - context: profile
        statements:
          - set(attributes["kind"], "cpu") where sample_type.type == "cpu"
)"},
        ProcessorCase{"transform_patterns", R"(  transform:
    error_mode: ignore
    profile_statements:
      - context: resource
        statements:
          - replace_pattern(attributes["service.name"], "^go-", "golang-")
          - keep_keys(attributes, ["service.name"])
      - context: profile
        statements:
          - set(attributes["sampled.type"], sample_type.type)
)"},
        // Each path names its context: the Collector refuses `sample_type.type` here, proflow takes it.
        ProcessorCase{"filter_inferred_context", R"(  filter:
    error_mode: ignore
    profile_conditions:
      - resource.attributes["service.name"] == "svc"
      - IsMatch(profile.sample_type.type, "^inuse_")
)"},
        ProcessorCase{"filter", R"(  filter:
    error_mode: ignore
    profiles:
      profile:
        - sample_type.type == "alloc_space"
)"}),
    [](const ::testing::TestParamInfo<ProcessorCase>& info) { return info.param.name; });

}  // namespace
}  // namespace proflow
