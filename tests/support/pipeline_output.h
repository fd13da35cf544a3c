// What an in-process daemon writes for one request: OTLP/gRPC receiver -> the given processors ->
// file exporter (OTLP protobuf). For tests that look at the exported bytes themselves (nothing
// redacted may be left in them). Header only: the test links proflow_cli for the daemon.
#pragma once

#include <grpcpp/grpcpp.h>

#include <fstream>
#include <sstream>
#include <string>

#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

namespace proflow::testing {

// `processors`: the YAML flow map of the `processors:` section; `pipeline`: the names in the
// pipeline's processor list. Returns the file's bytes ("" when the daemon did not start or the
// request was refused; the test has failed then).
inline std::string exportedBytes(const std::string& processors, const std::string& pipeline,
                                 const otlp::Request& request) {
  TempDir dir;
  const int port = freePort();
  auto service = startService(R"(
receivers:
  otlp: { protocols: { grpc: { endpoint: "127.0.0.1:)" + std::to_string(port) + R"(" } } }
processors: )" + processors + R"(
exporters:
  file: { path: ")" + dir.file("out.bin") + R"(", format: otlp_proto }
service:
  telemetry: { metrics: { address: "127.0.0.1:0" } }
  pipelines:
    profiles: { receivers: [otlp], processors: [)" + pipeline + R"(], exporters: [file] }
)");
  if (!service) return "";
  namespace collector = ::opentelemetry::proto::collector::profiles::v1development;
  auto stub = collector::ProfilesService::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  otlp::Response resp;
  const grpc::Status sent = stub->Export(&ctx, request, &resp);
  EXPECT_TRUE(sent.ok()) << sent.error_message();
  service->shutdown();
  if (!sent.ok()) return "";
  std::ifstream in(dir.file("out.bin"), std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace proflow::testing
