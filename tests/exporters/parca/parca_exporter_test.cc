// The parca exporter against a fake Parca ProfileStoreService written in the test from the
// documented API (parca.profilestore.v1alpha1.WriteRaw), over a real gRPC socket.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <deque>
#include <mutex>

#include "core/formats/pprof/pprof_codec.h"
#include "core/model/batch.h"
#include "exporters/parca/write_raw.h"
#include "opentelemetry/proto/collector/profiles/v1development/profiles_service.grpc.pb.h"
#include "parca/profilestore/v1alpha1/profilestore.grpc.pb.h"
#include "tests/receivers/otlp/service_harness.h"
#include "tests/support/daemon.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"
#include "tests/support/flat_request.h"

namespace proflow {
namespace {

namespace store = ::parca::profilestore::v1alpha1;

class FakeParca final : public store::ProfileStoreService::Service {
 public:
  FakeParca() {
    grpc::ServerBuilder b;
    b.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    b.RegisterService(this);
    server_ = b.BuildAndStart();
  }
  ~FakeParca() override { server_->Shutdown(); }

  grpc::Status WriteRaw(grpc::ServerContext* ctx, const store::WriteRawRequest* req, store::WriteRawResponse*) override {
    std::lock_guard lock(mu_);
    ++calls_;
    if (!script_.empty()) {
      grpc::Status s = script_.front();
      script_.pop_front();
      if (!s.ok()) return s;
    }
    // What the real server checks first.
    for (const auto& series : req->series()) {
      bool named = false;
      for (const auto& l : series.labels().labels()) named = named || l.name() == "__name__";
      if (!named) return {grpc::StatusCode::INVALID_ARGUMENT, "missing __name__ label"};
    }
    auto auth = ctx->client_metadata().find("authorization");
    authorization_ = auth == ctx->client_metadata().end() ? "" : std::string(auth->second.data(), auth->second.size());
    requests_.push_back(*req);
    return grpc::Status::OK;
  }

  int port() const { return port_; }
  void script(std::deque<grpc::Status> s) {
    std::lock_guard lock(mu_);
    script_ = std::move(s);
  }
  std::vector<store::WriteRawRequest> requests() {
    std::lock_guard lock(mu_);
    return requests_;
  }
  int calls() {
    std::lock_guard lock(mu_);
    return calls_;
  }
  std::string authorization() {
    std::lock_guard lock(mu_);
    return authorization_;
  }

 private:
  int port_ = 0;
  std::unique_ptr<grpc::Server> server_;
  std::mutex mu_;
  std::deque<grpc::Status> script_;
  std::vector<store::WriteRawRequest> requests_;
  std::string authorization_;
  int calls_ = 0;
};

std::map<std::string, std::string> labelsOf(const store::RawProfileSeries& s) {
  std::map<std::string, std::string> out;
  for (const auto& l : s.labels().labels()) out[l.name()] = l.value();
  return out;
}

otlp::Request checkoutRequest() {
  testing::ProfileSpec cpu;
  cpu.samples = {{{"leaf", "main"}, 30}, {{"other", "main"}, 12}};
  otlp::Request r = testing::makeRequest("checkout", {cpu});
  auto* kv = r.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
  kv->set_key("k8s.pod.name");
  kv->mutable_value()->set_string_value("checkout-7d9f");
  return r;
}

class ParcaExporterTest : public ::testing::Test {
 protected:
  std::unique_ptr<Service> start(const std::string& extra = "") {
    otlp_port_ = testing::freePort();
    std::string token = dir_.write("token", "s3cret\n");
    return testing::startService(
        "receivers: { otlp: { protocols: { grpc: { endpoint: 127.0.0.1:" + std::to_string(otlp_port_) + " } } } }\n"
        "exporters:\n  parca:\n    endpoint: 127.0.0.1:" + std::to_string(parca_.port()) +
        "\n    tls: { insecure: true }\n    bearer_token_file: " + token +
        "\n    external_labels: { cluster: eu-1 }\n"
        "    retry_on_failure: { initial_interval: 10ms, max_interval: 50ms }\n" + extra +
        "service:\n  shutdown_timeout: 5s\n  telemetry: { metrics: { address: \"127.0.0.1:0\" } }\n"
        "  pipelines: { profiles: { receivers: [otlp], exporters: [parca] } }\n");
  }
  grpc::Status send(const otlp::Request& r) {
    auto ch = grpc::CreateChannel("127.0.0.1:" + std::to_string(otlp_port_), grpc::InsecureChannelCredentials());
    grpc::ClientContext ctx;
    otlp::Response response;
    return opentelemetry::proto::collector::profiles::v1development::ProfilesService::NewStub(ch)->Export(&ctx, r, &response);
  }

  testing::TempDir dir_;
  FakeParca parca_;
  int otlp_port_ = 0;
};

TEST_F(ParcaExporterTest, WritesPprofWithSeriesLabelsAndTheBearerToken) {
  auto service = start();
  ASSERT_TRUE(service);
  ASSERT_TRUE(send(checkoutRequest()).ok());
  service->shutdown();
  auto requests = parca_.requests();
  ASSERT_EQ(requests.size(), 1u);
  ASSERT_EQ(requests[0].series_size(), 1);
  const auto& series = requests[0].series(0);
  EXPECT_EQ(labelsOf(series), (std::map<std::string, std::string>{{"__name__", "process_cpu"},
                                                                  {"cluster", "eu-1"},
                                                                  {"k8s_pod_name", "checkout-7d9f"},
                                                                  {"service_name", "checkout"}}));
  EXPECT_EQ(parca_.authorization(), "Bearer s3cret");
  ASSERT_EQ(series.samples_size(), 1);
  pprof::Profile p;
  ASSERT_TRUE(pprof::decodeProfile(series.samples(0).raw_profile(), &p).isOk());
  int64_t total = 0;
  for (const auto& s : p.sample()) total += s.value(0);
  EXPECT_EQ(total, 42);
  EXPECT_EQ(p.string_table(p.sample_type(0).type()), "cpu");
}

TEST_F(ParcaExporterTest, RetriesUnavailableAndDropsWhatParcaRefuses) {
  parca_.script({grpc::Status(grpc::StatusCode::UNAVAILABLE, "restarting"),
                 grpc::Status(grpc::StatusCode::INVALID_ARGUMENT, "label name invalid")});
  auto service = start("    sending_queue: { num_consumers: 1 }\n");
  ASSERT_TRUE(service);
  ASSERT_TRUE(send(checkoutRequest()).ok());  // UNAVAILABLE, then INVALID_ARGUMENT: dropped
  ASSERT_TRUE(send(checkoutRequest()).ok());  // delivered
  service->shutdown();
  EXPECT_EQ(parca_.calls(), 3);
  EXPECT_EQ(parca_.requests().size(), 1u);
  EXPECT_EQ(service->metrics().value("proflow_exporter_failed_batches_total", {{"exporter", "parca"}}), 1);
  EXPECT_EQ(service->metrics().value("proflow_exporter_sent_batches_total", {{"exporter", "parca"}}), 1);
}

TEST(ParcaWriteRaw, ProfilesWithTheSameLabelsShareASeriesAndOddAttributesAreSanitised) {
  // Three profiles of one resource that did not come from one pprof: three pprofs, two of one kind.
  testing::ProfileSpec cpu;
  cpu.samples = {{{"leaf", "main"}, 30}};
  testing::ProfileSpec heap;
  heap.sample_type = "inuse_space";
  heap.sample_unit = "bytes";
  heap.samples = {{{"alloc", "main"}, 4096}};
  otlp::Request r = testing::makeRequest("checkout", {cpu, heap, testing::makeProfile(3)});
  auto* arr = r.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
  arr->set_key("process.command_args");  // not a scalar: no label
  arr->mutable_value()->mutable_array_value()->add_values()->set_string_value("-v");
  auto* odd = r.mutable_resource_profiles(0)->mutable_resource()->add_attributes();
  odd->set_key("9lives.count");
  odd->mutable_value()->set_int_value(9);
  store::WriteRawRequest out;
  ASSERT_TRUE(exporters::parca::buildWriteRaw(::proflow::testing::batchOf(otlp::Request(r)).data(), {{"service_name", "renamed"}}, &out).isOk());
  std::map<std::string, int> samples_by_name;
  for (const auto& s : out.series()) {
    auto labels = labelsOf(s);
    EXPECT_EQ(labels["service_name"], "renamed");  // external labels win
    EXPECT_EQ(labels["_9lives_count"], "9");
    EXPECT_EQ(labels.count("process_command_args"), 0u);
    samples_by_name[labels["__name__"]] += s.samples_size();
  }
  // cpu (first request) and cpu (makeProfile) share process_cpu; inuse_space is memory.
  EXPECT_EQ(samples_by_name, (std::map<std::string, int>{{"memory", 1}, {"process_cpu", 2}}));
}

TEST(ParcaExporterConfig, ErrorsAreListedTogether) {
  std::string errors = testing::configErrors(
      "receivers: { otlp: { protocols: { grpc: {} } } }\n"
      "exporters:\n  parca: { bearer_token: a, bearer_token_file: /nonexistent/token, external_labels: { __x: y },"
      " compression: zstd }\n"
      "service: { pipelines: { profiles: { receivers: [otlp], exporters: [parca] } } }\n");
  for (const char* expected : {"parca.endpoint", "not both", "/nonexistent/token", "__x", "compression"})
    EXPECT_NE(errors.find(expected), std::string::npos) << expected << "\n" << errors;
}

}  // namespace
}  // namespace proflow
