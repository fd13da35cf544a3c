// Reload requests coalesce: while one reload runs, any number of requests made meanwhile cost one
// more reload, and every requester gets that reload's outcome.
#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>

#include "tests/receivers/otlp/service_harness.h"

namespace proflow {
namespace {

constexpr const char* kConfig = R"(
receivers: { otlp: { protocols: { http: { endpoint: "127.0.0.1:0" } } } }
exporters: { debug: {} }
service:
  telemetry: { metrics: { address: none } }
  pipelines: { profiles: { receivers: [otlp], exporters: [debug] } }
)";

// A config source whose first read waits until the test lets it go, counting its reads.
struct GatedSource {
  std::mutex mu;
  std::condition_variable cv;
  int reads = 0;
  bool open = false;

  Service::ConfigSource source() {
    return [this](config::ServiceConfig*, std::string* errors) {
      std::unique_lock lock(mu);
      ++reads;
      cv.notify_all();
      cv.wait(lock, [&] { return open; });
      *errors = "refused on purpose\n";
      return Status::invalid("refused on purpose");
    };
  }
};

TEST(ReloadCoalescing, TwentyRequestsWhileOneRunsCostOneMoreReloadAndAllGetItsOutcome) {
  auto service = testing::startService(kConfig);
  ASSERT_TRUE(service);
  GatedSource gate;
  service->setConfigSource(gate.source());

  std::mutex mu;
  std::condition_variable cv;
  int answered = 0;
  std::vector<std::string> messages;
  auto done = [&](const Service::ReloadOutcome& o) {
    std::lock_guard lock(mu);
    ++answered;
    messages.push_back(o.message);
    cv.notify_all();
  };
  service->requestReload("first", done);
  {
    std::unique_lock lock(gate.mu);
    gate.cv.wait(lock, [&] { return gate.reads == 1; });  // the first reload is running
  }
  for (int i = 0; i < 20; ++i) service->requestReload("POST /-/reload", done);
  {
    std::lock_guard lock(gate.mu);
    gate.open = true;
  }
  gate.cv.notify_all();
  {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return answered == 21; });
  }
  std::lock_guard lock(gate.mu);
  EXPECT_EQ(gate.reads, 2) << "one reload for the 20 requests made while the first ran";
  EXPECT_EQ(service->metrics().value("proflow_config_reloads_total", {}), 2);
  EXPECT_EQ(service->metrics().value("proflow_config_reload_requests_coalesced_total", {}), 19);
  for (const auto& m : messages) EXPECT_EQ(m, "refused on purpose\n");
  service->shutdown();
}

}  // namespace
}  // namespace proflow
