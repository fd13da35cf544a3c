// The datadog exporter against a fake profiling intake written in the test from the documented
// request layout (multipart/form-data, event.json version 4, one file part per attachment).
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <mutex>
#include <thread>

#include "core/formats/pprof/pprof_codec.h"
#include "core/net/http_server.h"
#include "core/model/batch.h"
#include "exporters/datadog/upload.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/profile_builder.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "tests/support/flat_request.h"

#include <grpcpp/grpcpp.h>

namespace proflow {
namespace {

struct Part {
  std::string name, filename, content_type, data;
};

// A deliberately independent multipart reader: split on the boundary from Content-Type, read the
// part headers, keep the bytes between the blank line and the next delimiter.
std::vector<Part> parseMultipart(const std::string& content_type, const std::string& body) {
  std::vector<Part> parts;
  const std::string marker = "boundary=";
  const std::string delimiter = "--" + content_type.substr(content_type.find(marker) + marker.size());
  size_t pos = body.find(delimiter);
  while (pos != std::string::npos) {
    pos += delimiter.size();
    if (body.compare(pos, 2, "--") == 0) break;  // closing delimiter
    pos += 2;                                    // CRLF
    const size_t headers_end = body.find("\r\n\r\n", pos);
    const std::string headers = body.substr(pos, headers_end - pos);
    const size_t next = body.find("\r\n" + delimiter, headers_end);
    Part p;
    p.data = body.substr(headers_end + 4, next - headers_end - 4);
    auto field = [&](const std::string& key) {
      size_t k = headers.find(key + "=\"");
      if (k == std::string::npos) return std::string();
      k += key.size() + 2;
      return headers.substr(k, headers.find('"', k) - k);
    };
    p.name = field("name");
    p.filename = field("filename");
    size_t ct = headers.find("Content-Type: ");
    p.content_type = ct == std::string::npos ? "" : headers.substr(ct + 14, headers.find("\r\n", ct) - ct - 14);
    parts.push_back(std::move(p));
    pos = next + 2;
  }
  return parts;
}

class FakeIntake {
 public:
  FakeIntake() {
    net::HttpServerOptions o;
    server_ = std::make_unique<net::HttpServer>(io_, o, nullptr, nullptr);
    server_->route("POST", "/profiling/v1/input", [this](net::HttpRequest&& r, net::Responder respond) {
      std::lock_guard lock(mu_);
      if (!statuses_.empty()) {
        int code = statuses_.front();
        statuses_.erase(statuses_.begin());
        return respond(net::HttpResponse::text(code, "intake says no"));
      }
      uploads_.push_back(r);
      respond(net::HttpResponse::text(202, ""));  // what the intake answers
    });
    EXPECT_TRUE(server_->start().isOk());
    thread_ = std::thread([this] { io_.run(); });
  }
  ~FakeIntake() {
    server_->stop();
    io_.stop();
    thread_.join();
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(server_->port()) + "/profiling/v1/input"; }
  void answer(std::vector<int> codes) {
    std::lock_guard lock(mu_);
    statuses_ = std::move(codes);
  }
  std::vector<net::HttpRequest> uploads() {
    std::lock_guard lock(mu_);
    return uploads_;
  }

 private:
  boost::asio::io_context io_;
  std::unique_ptr<net::HttpServer> server_;
  std::thread thread_;
  std::mutex mu_;
  std::vector<int> statuses_;
  std::vector<net::HttpRequest> uploads_;
};

void setAttr(otlp::Request& r, const std::string& key, const std::string& value) {
  auto* kv = r.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
  kv->set_key(key);
  kv->mutable_value()->set_string_value(value);
}

// A Go service with a cpu and a heap profile.
otlp::Request goService() {
  testing::ProfileSpec cpu;
  cpu.samples = {{{"leaf", "main"}, 30}, {{"other", "main"}, 12}};
  testing::ProfileSpec heap;
  heap.sample_type = "inuse_space";
  heap.sample_unit = "bytes";
  heap.samples = {{{"alloc", "main"}, 4096}};
  otlp::Request r = testing::makeRequest("checkout", {cpu, heap});
  setAttr(r, "process.runtime.name", "go");
  setAttr(r, "deployment.environment.name", "prod");
  setAttr(r, "service.version", "1.4.2");
  return r;
}

TEST(DatadogUpload, GoProfilesBecomeNamedAttachmentsOfOneUploadWithTags) {
  std::vector<exporters::datadog::Upload> uploads;
  ASSERT_TRUE(exporters::datadog::buildUploads(::proflow::testing::batchOf(goService()).data(), {{"team", "payments"}}, &uploads).isOk());
  ASSERT_EQ(uploads.size(), 1u);
  std::vector<std::string> names;
  for (const auto& a : uploads[0].attachments) names.push_back(a.name);
  EXPECT_EQ(names, (std::vector<std::string>{"cpu.pprof", "delta-heap.pprof"}));
  const std::string& event = uploads[0].event_json;
  for (const char* expected :
       {"\"version\":\"4\"", "\"family\":\"go\"", "\"attachments\":[\"cpu.pprof\",\"delta-heap.pprof\"]",
        "service:checkout,env:prod,version:1.4.2,runtime:go,team:payments", "\"start\":\"2023-11-14T22:13:20.000000000Z\"",
        "\"end\":\"2023-11-14T22:13:30.000000000Z\""})
    EXPECT_NE(event.find(expected), std::string::npos) << expected << "\n" << event;
}

TEST(DatadogUpload, TwoProfilesWithOneAttachmentNameGoInTwoUploads) {
  otlp::Request r = testing::makeRequest("batchjob", {testing::makeProfile(3, 1), testing::makeProfile(4, 2)});
  std::vector<exporters::datadog::Upload> uploads;
  ASSERT_TRUE(exporters::datadog::buildUploads(::proflow::testing::batchOf(otlp::Request(r)).data(), {}, &uploads).isOk());
  ASSERT_EQ(uploads.size(), 2u);  // a native (unknown runtime) service: both are profile.pprof
  for (const auto& u : uploads) {
    ASSERT_EQ(u.attachments.size(), 1u);
    EXPECT_EQ(u.attachments[0].name, "profile.pprof");
    EXPECT_NE(u.event_json.find("\"family\":\"native\""), std::string::npos) << u.event_json;
  }
}

class DatadogExporterTest : public ::testing::Test {
 protected:
  std::unique_ptr<Service> start() {
    otlp_port_ = testing::freePort();
    return testing::startService(
        "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:" + std::to_string(otlp_port_) + " } } } }\n"
        "exporters:\n  datadog:\n    endpoint: " + intake_.url() + "\n    api_key: k3y\n"
        "    sending_queue: { num_consumers: 1 }\n"
        "    retry_on_failure: { initial_interval: 10ms, max_interval: 50ms }\n"
        "service:\n  shutdown_timeout: 5s\n  telemetry: { metrics: { address: \"127.0.0.1:0\" } }\n"
        "  pipelines: { profiles: { receivers: [otlp], exporters: [datadog] } }\n");
  }
  bool send(const otlp::Request& r) {
    auto ch = grpc::CreateChannel("127.0.0.1:" + std::to_string(otlp_port_), grpc::InsecureChannelCredentials());
    grpc::ClientContext ctx;
    otlp::Response response;
    return opentelemetry::proto::collector::profiles::v1development::ProfilesService::NewStub(ch)
        ->Export(&ctx, r, &response)
        .ok();
  }
  FakeIntake intake_;
  int otlp_port_ = 0;
};

TEST_F(DatadogExporterTest, UploadsMultipartThatDecodesBackToTheProfiles) {
  auto service = start();
  ASSERT_TRUE(service);
  ASSERT_TRUE(send(goService()));
  service->shutdown();
  auto uploads = intake_.uploads();
  ASSERT_EQ(uploads.size(), 1u);
  EXPECT_EQ(uploads[0].header("DD-API-KEY"), "k3y");
  EXPECT_EQ(uploads[0].header("DD-EVP-ORIGIN"), "proflow");
  auto parts = parseMultipart(std::string(uploads[0].header("Content-Type")), uploads[0].body);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].name, "event");
  EXPECT_EQ(parts[0].filename, "event.json");
  EXPECT_EQ(parts[0].content_type, "application/json");
  EXPECT_NE(parts[0].data.find("\"family\":\"go\""), std::string::npos);
  std::map<std::string, int64_t> totals;
  for (size_t i = 1; i < parts.size(); ++i) {
    EXPECT_EQ(parts[i].name, parts[i].filename);  // part name = file name
    pprof::Profile p;
    ASSERT_TRUE(pprof::decodeProfile(parts[i].data, &p).isOk()) << parts[i].name;
    for (const auto& s : p.sample()) totals[parts[i].name] += s.value(0);
  }
  EXPECT_EQ(totals, (std::map<std::string, int64_t>{{"cpu.pprof", 42}, {"delta-heap.pprof", 4096}}));
}

TEST_F(DatadogExporterTest, ServerErrorsAreRetriedAndTooLargeIsDropped) {
  intake_.answer({503, 413});
  auto service = start();
  ASSERT_TRUE(service);
  ASSERT_TRUE(send(goService()));  // 503 (retried), then 413: dropped
  ASSERT_TRUE(send(goService()));  // delivered
  service->shutdown();
  EXPECT_EQ(intake_.uploads().size(), 1u);
  EXPECT_EQ(service->metrics().value("proflow_exporter_failed_batches_total", {{"exporter", "datadog"}}), 1);
  EXPECT_EQ(service->metrics().value("proflow_exporter_sent_batches_total", {{"exporter", "datadog"}}), 1);
}

TEST(DatadogExporterConfig, ErrorsAreListedTogether) {
  std::string errors = testing::configErrors(
      "receivers: { otlp: { protocols: { grpc: {} } } }\n"
      "exporters:\n  datadog: { site: datadoghq.eu, tags: { 'a,b': x } }\n"
      "service: { pipelines: { profiles: { receivers: [otlp], exporters: [datadog] } } }\n");
  EXPECT_NE(errors.find("api_key"), std::string::npos) << errors;
  EXPECT_NE(errors.find("a,b"), std::string::npos) << errors;
  errors = testing::configErrors(
      "receivers: { otlp: { protocols: { grpc: {} } } }\n"
      "exporters:\n  datadog: {}\n"
      "service: { pipelines: { profiles: { receivers: [otlp], exporters: [datadog] } } }\n");
  EXPECT_NE(errors.find("datadog.endpoint"), std::string::npos) << errors;
}

}  // namespace
}  // namespace proflow
