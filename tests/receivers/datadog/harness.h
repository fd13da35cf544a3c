// A datadog receiver on port 0 with a capturing consumer, and an HTTP client to talk to it.
#pragma once

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <condition_variable>
#include <mutex>
#include <string>
#include <vector>

#include "core/config/component_config.h"
#include "core/net/http_client.h"
#include "core/runtime/runtime.h"
#include "core/telemetry/component_telemetry.h"
#include "receivers/datadog/datadog_receiver.h"
#include "receivers/datadog/factory.h"
#include "tests/support/stand_ins.h"

namespace proflow::receivers::datadog::testing {

class Capture final : public ProfilesConsumer {
 public:
  Status consume(Batch b) override {
    std::lock_guard<std::mutex> lock(mu);
    batches.push_back(std::move(b));
    cv.notify_all();
    return answer;
  }
  // Waits until `n` batches arrived (or `timeout`); returns a copy.
  std::vector<Batch> wait(size_t n, std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait_for(lock, timeout, [&] { return batches.size() >= n; });
    return batches;
  }
  std::mutex mu;
  std::condition_variable cv;
  std::vector<Batch> batches;
  Status answer;
};

using ::proflow::testing::NullHost;

class DatadogReceiverTest : public ::testing::Test {
 protected:
  void TearDown() override { stop(); }

  void start(DatadogReceiverConfig cfg) {
    stop();
    cfg.endpoint = "127.0.0.1:0";
    auto factory = makeDatadogReceiverFactory();
    ASSERT_EQ(factory->type(), "datadog");
    auto* rf = dynamic_cast<ReceiverFactory*>(factory.get());
    config::TypedConfig<DatadogReceiverConfig> typed(cfg);
    CreateSettings s{ComponentId{"datadog", ""}, ComponentKind::kReceiver, spdlog::default_logger(), &telemetry_,
                     &runtime_};
    receiver_ = rf->create(s, typed, capture_);
    ASSERT_TRUE(receiver_->start(host_).isOk());
    port_ = dynamic_cast<DatadogReceiver&>(*receiver_).port();
    ASSERT_GT(port_, 0);
  }
  void stop() {
    if (receiver_) receiver_->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(2));
    receiver_.reset();
  }

  net::HttpResult send(const std::string& method, const std::string& target, const net::HttpHeaders& headers,
                       const std::string& body) {
    return client_.request(method, "http://127.0.0.1:" + std::to_string(port_) + target, headers, body,
                           std::chrono::seconds(20));
  }

  uint64_t counter(const std::string& suffix) { return telemetry_.counter(suffix, "").value(); }

  telemetry::MetricsRegistry registry_;
  telemetry::ComponentTelemetry telemetry_{registry_, ComponentKind::kReceiver, "datadog"};
  Runtime runtime_{1, 2};
  std::shared_ptr<Capture> capture_ = std::make_shared<Capture>();
  NullHost host_;
  std::unique_ptr<Receiver> receiver_;
  net::HttpClient client_{net::HttpClientOptions{}};
  int port_ = 0;
};

}  // namespace proflow::receivers::datadog::testing
