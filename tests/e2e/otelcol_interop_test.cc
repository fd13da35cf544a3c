// proflow and the OpenTelemetry Collector in one ring, each relaying the other's profiles over
// OTLP/gRPC, OTLP/HTTP protobuf and OTLP/HTTP JSON:
//
//   proflow -> Collector -> proflow:    test -> proflow otlp/in -> Collector otlp/relay -> proflow otlp/back -> file
//   Collector -> proflow -> Collector:  test -> Collector otlp/in -> proflow otlp/relay -> Collector otlp/back -> file
//
// Recordings of several producers go in; what the last hop writes must mean what was sent
// (expanded_samples.h: the dictionary may be laid out anew, the samples may not change).
#include <gtest/gtest.h>

#include "tests/e2e/expanded_samples.h"
#include "tests/e2e/otelcol_peer.h"
#include "tests/e2e/otlp_client.h"
#include "tests/e2e/producer_fixtures.h"
#include "tests/support/machine_permits.h"
#include "tests/support/otlp_files.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

using namespace std::chrono_literals;
using testing::freePort;

enum class Wire { kGrpc, kHttpProto, kHttpJson };

std::string wireName(Wire w) {
  switch (w) {
    case Wire::kGrpc:
      return "grpc";
    case Wire::kHttpProto:
      return "http_protobuf";
    case Wire::kHttpJson:
      return "http_json";
  }
  return "";
}

void PrintTo(Wire w, std::ostream* os) { *os << wireName(w); }

// The ports of one side of the ring: `in` takes the test's requests (gRPC), `relay` and `back` take
// the other side's on both protocols.
struct Ports {
  int in = freePort();
  int relay_grpc = freePort(), relay_http = freePort();
  int back_grpc = freePort(), back_http = freePort();
};

std::string endpoint(int port) { return "127.0.0.1:" + std::to_string(port); }

std::string receivers(const Ports& p) {
  return "  otlp/in: { protocols: { grpc: { endpoint: " + endpoint(p.in) + " } } }\n" +
         "  otlp/relay: { protocols: { grpc: { endpoint: " + endpoint(p.relay_grpc) +
         " }, http: { endpoint: " + endpoint(p.relay_http) + " } } }\n" +
         "  otlp/back: { protocols: { grpc: { endpoint: " + endpoint(p.back_grpc) +
         " }, http: { endpoint: " + endpoint(p.back_http) + " } } }\n";
}

const char* kPipelines = R"(  pipelines:
    profiles/in: { receivers: [otlp/in], exporters: [to_relay] }
    profiles/relay: { receivers: [otlp/relay], exporters: [to_back] }
    profiles/back: { receivers: [otlp/back], exporters: [file] }
)";

// An exporter `<type>/<name>` sending to `grpc_port` or `http_port` of the other side; `compression`
// "" keeps the exporter's default. proflow and the Collector spell the keys alike.
std::string exporter(const std::string& type, const std::string& name, Wire wire, int grpc_port, int http_port,
                     const std::string& compression) {
  std::string out = "  " + type + "/" + name + ": { endpoint: ";
  if (wire == Wire::kGrpc)
    out += endpoint(grpc_port) + ", tls: { insecure: true }";
  else
    out += "http://" + endpoint(http_port) + ", encoding: " + (wire == Wire::kHttpJson ? "json" : "proto");
  if (!compression.empty()) out += ", compression: " + compression;
  return out + " }\n";
}

// The exporter ids of a pipeline line: `to_relay` -> `otlp/to_relay` and so on.
std::string pipelines(const std::string& exporter_type) {
  std::string out = kPipelines;
  for (const std::string id : {"to_relay", "to_back"})
    for (size_t at = out.find("[" + id + "]"); at != std::string::npos; at = out.find("[" + id + "]", at + 1))
      out.replace(at + 1, id.size(), exporter_type + "/" + id);
  return out;
}

// What each side's exporters compress with ("": their default, gzip for both).
struct Compression {
  std::string proflow, collector;
};

class Ring {
 public:
  Ring(Wire wire, const std::string& collector_binary, const Compression& compression = {}) {
    const std::string proflow_type = wire == Wire::kGrpc ? "otlp" : "otlphttp";
    const std::string collector_type = wire == Wire::kGrpc ? "otlp_grpc" : "otlp_http";
    const int metrics = freePort();
    const std::string proflow_config = dir_.write(
        "proflow.yaml", "receivers:\n" + receivers(proflow_) + "exporters:\n" +
                            exporter(proflow_type, "to_relay", wire, collector_.relay_grpc, collector_.relay_http,
                                     compression.proflow) +
                            exporter(proflow_type, "to_back", wire, collector_.back_grpc, collector_.back_http,
                                     compression.proflow) +
                            "  file: { path: " + proflowFile() + ", format: otlp_proto, flush_interval: 0 }\n" +
                            "service:\n  telemetry: { metrics: { address: " + endpoint(metrics) + " } }\n" +
                            pipelines(proflow_type));
    const std::string collector_config = dir_.write(
        "collector.yaml", "receivers:\n" + receivers(collector_) + "exporters:\n" +
                              exporter(collector_type, "to_relay", wire, proflow_.relay_grpc, proflow_.relay_http,
                                       compression.collector) +
                              exporter(collector_type, "to_back", wire, proflow_.back_grpc, proflow_.back_http,
                                       compression.collector) +
                              "  file: { path: " + collectorFile() + ", format: proto, flush_interval: 100ms }\n" +
                              // No metrics endpoint: tests running at once would all want :8888.
                              "service:\n  telemetry: { metrics: { level: none } }\n" +
                              pipelines(collector_type));
    proflow_daemon_ = std::make_unique<testing::Daemon>(std::vector<std::string>{"--config", proflow_config},
                                                        dir_.file("proflow.log"));
    collector_daemon_ = testing::startOtelcol(collector_binary, collector_config, dir_.file("collector.log"));
    started_ = proflow_daemon_->waitHealthy(metrics) && testing::waitOtelcolReady(*collector_daemon_);
  }

  bool started() const { return started_; }
  std::string logs() const {
    return "--- proflow:\n" + proflow_daemon_->log() + "\n--- Collector:\n" + collector_daemon_->log();
  }
  int proflowIn() const { return proflow_.in; }
  int collectorIn() const { return collector_.in; }
  // Where the last hop of each direction writes (size-prefixed ProfilesData, both file exporters).
  std::string proflowFile() const { return dir_.file("proflow_back.binpb"); }
  std::string collectorFile() const { return dir_.file("collector_back.binpb"); }

 private:
  testing::TempDir dir_;
  Ports proflow_, collector_;
  std::unique_ptr<testing::Daemon> proflow_daemon_, collector_daemon_;
  bool started_ = false;
};

// Tests that run the Collector peer; skipped where it cannot be built (otelcol_peer.h).
template <class Param>
class WithCollector : public ::testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    std::string refused;
    collector_ = testing::otelcolPeer(&refused);
    PROFLOW_SKIP_IF_REFUSED(refused);
    ASSERT_FALSE(collector_.empty());
  }

  // Sends each fixture to `in_port` in turn and checks that the expansion of the records `out_file`
  // gained since equals that of the fixture.
  static void relayEachFixture(const Ring& ring, int in_port, const std::string& out_file) {
    size_t records_seen = 0;
    for (const auto& fixture : testing::producerFixtures()) {
      SCOPED_TRACE(fixture.name);
      const std::vector<std::string> sent = testing::expandSamples(fixture.request);
      const grpc::Status status = testing::exportTo(in_port, fixture.request, 30s);
      ASSERT_TRUE(status.ok()) << status.error_message() << "\n" << ring.logs();
      std::vector<otlp::Request> records;
      std::vector<std::string> received;
      testing::waitFor([&] {
        records = testing::readOtlpProtoFileSoFar(out_file);
        if (records.size() < records_seen) return false;
        received = testing::expandSamples(
            std::vector<otlp::Request>(records.begin() + static_cast<ptrdiff_t>(records_seen), records.end()));
        return received.size() >= sent.size();
      }, 30s);
      records_seen = records.size();
      EXPECT_EQ(testing::expansionDifference(sent, received), "") << ring.logs();
    }
  }

  std::string collector_;
};

class OtelcolInterop : public WithCollector<Wire> {};

TEST_P(OtelcolInterop, ProflowToCollectorToProflowKeepsEveryProducersSamples) {
  Ring ring(GetParam(), collector_);
  ASSERT_TRUE(ring.started()) << ring.logs();
  relayEachFixture(ring, ring.proflowIn(), ring.proflowFile());
}

TEST_P(OtelcolInterop, CollectorToProflowToCollectorKeepsEveryProducersSamples) {
  Ring ring(GetParam(), collector_);
  ASSERT_TRUE(ring.started()) << ring.logs();
  relayEachFixture(ring, ring.collectorIn(), ring.collectorFile());
}

INSTANTIATE_TEST_SUITE_P(Wires, OtelcolInterop, ::testing::Values(Wire::kGrpc, Wire::kHttpProto, Wire::kHttpJson),
                         [](const ::testing::TestParamInfo<Wire>& info) { return wireName(info.param); });

// The Collector forwards a profile whose stack_index is past the stack table (it does not check
// indices); proflow refuses that profile alone with an OTLP partial success, which the Collector's
// exporter logs and does not retry, and the rest of the request goes on.
TEST_P(OtelcolInterop, AProfileProflowRefusesBehindTheCollectorIsReportedAndTheRestArrives) {
  Ring ring(GetParam(), collector_);
  ASSERT_TRUE(ring.started()) << ring.logs();
  otlp::Request request = testing::makeRequest("partial", {testing::makeProfile(5, 1), testing::makeProfile(7, 2)});
  otlp::Request expected = request;
  auto* broken = request.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0);
  broken->mutable_samples(0)->set_stack_index(request.dictionary().stack_table_size() + 5);
  expected.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles()->DeleteSubrange(0, 1);

  const grpc::Status status = testing::exportTo(ring.collectorIn(), request, 30s);
  ASSERT_TRUE(status.ok()) << status.error_message();
  std::vector<std::string> received;
  testing::waitFor([&] {
    received = testing::expandSamples(testing::readOtlpProtoFileSoFar(ring.collectorFile()));
    return !received.empty();
  }, 30s);
  EXPECT_EQ(testing::expansionDifference(testing::expandSamples(expected), received), "") << ring.logs();
  EXPECT_TRUE(testing::waitFor([&] {
    const std::string log = ring.logs();
    return log.find("Partial success response") != std::string::npos && log.find("stack_index") != std::string::npos;
  }, 10s)) << ring.logs();
}

// Each side decodes what the other's exporters compress with, where both implement the codec (the
// defaults, gzip, are covered above), zstd over gRPC included. The Collector also offers snappy and
// x-snappy-framed over HTTP (proflow answers 415) and snappy over gRPC (INVALID_ARGUMENT: gRPC 1.51
// drops a grpc-encoding it does not know, so the message cannot be told from a malformed one).
struct CompressionCase {
  Wire wire;
  Compression compression;
};

void PrintTo(const CompressionCase& c, std::ostream* os) {
  *os << wireName(c.wire) << " proflow " << c.compression.proflow << " Collector " << c.compression.collector;
}

class OtelcolCompression : public WithCollector<CompressionCase> {};

TEST_P(OtelcolCompression, BothSidesDecodeTheOthersCompressedExports) {
  // proflow -> Collector -> proflow: one hop compressed by each.
  Ring ring(GetParam().wire, collector_, GetParam().compression);
  ASSERT_TRUE(ring.started()) << ring.logs();
  relayEachFixture(ring, ring.proflowIn(), ring.proflowFile());
}

INSTANTIATE_TEST_SUITE_P(Codecs, OtelcolCompression,
                         ::testing::Values(CompressionCase{Wire::kGrpc, {"none", "none"}},
                                           CompressionCase{Wire::kGrpc, {"gzip", "zstd"}},
                                           CompressionCase{Wire::kHttpProto, {"none", "none"}},
                                           CompressionCase{Wire::kHttpProto, {"zstd", "zstd"}},
                                           CompressionCase{Wire::kHttpProto, {"gzip", "deflate"}},
                                           CompressionCase{Wire::kHttpProto, {"zstd", "zlib"}},
                                           CompressionCase{Wire::kHttpJson, {"zstd", "lz4"}}),
                         [](const ::testing::TestParamInfo<CompressionCase>& info) {
                           const CompressionCase& c = info.param;
                           return wireName(c.wire) + "_proflow_" + c.compression.proflow + "_collector_" +
                                  c.compression.collector;
                         });

}  // namespace
}  // namespace proflow
