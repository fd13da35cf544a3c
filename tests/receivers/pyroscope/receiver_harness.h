// A pyroscope receiver on port 0 with a capturing consumer, and curl as the client (what people and
// SDK-less scripts use against Pyroscope's /ingest).
#pragma once

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <condition_variable>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "core/config/component_config.h"
#include "tests/support/dictionary_builder.h"
#include "core/runtime/runtime.h"
#include "core/telemetry/component_telemetry.h"
#include "receivers/pyroscope/factory.h"
#include "receivers/pyroscope/pyroscope_receiver.h"
#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"
#include "tests/support/stand_ins.h"

namespace proflow::receivers::pyroscope::testing {

class Capture final : public ProfilesConsumer {
 public:
  Status consume(Batch b) override {
    std::unique_lock<std::mutex> lock(mu);
    batches.push_back(std::move(b));
    ++entered;
    cv.notify_all();
    cv.wait(lock, [&] { return !hold; });  // tests hold a request inside the pipeline
    return answer;
  }
  void setHold(bool h) {
    std::lock_guard<std::mutex> lock(mu);
    hold = h;
    cv.notify_all();
  }
  void waitEntered(int n) {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait(lock, [&] { return entered >= n; });
  }
  std::mutex mu;
  std::condition_variable cv;
  std::vector<Batch> batches;
  Status answer;
  bool hold = false;
  int entered = 0;
};

using ::proflow::testing::NullHost;

struct Reply {
  int status = 0;
  std::string headers;
  std::string body;
};

class ReceiverTest : public ::testing::Test {
 protected:
  void SetUp() override { start(PyroscopeReceiverConfig{}); }
  void TearDown() override {
    if (receiver_) receiver_->shutdown(std::chrono::steady_clock::now() + std::chrono::seconds(1));
  }

  void start(PyroscopeReceiverConfig cfg) {
    if (receiver_) receiver_->shutdown(std::chrono::steady_clock::now());
    cfg.endpoint = "127.0.0.1:0";
    auto factory = makePyroscopeReceiverFactory();
    ASSERT_EQ(factory->type(), "pyroscope");
    auto* rf = dynamic_cast<ReceiverFactory*>(factory.get());
    config::TypedConfig<PyroscopeReceiverConfig> typed(cfg);
    CreateSettings s{ComponentId{"pyroscope", ""}, ComponentKind::kReceiver, spdlog::default_logger(), &telemetry_,
                     &runtime_};
    receiver_ = rf->create(s, typed, capture_);
    ASSERT_TRUE(receiver_->start(host_).isOk());
    port_ = dynamic_cast<PyroscopeReceiver&>(*receiver_).port();
    ASSERT_GT(port_, 0);
  }

  // curl POST to `path_and_query` with extra curl arguments (body, headers, -F parts).
  Reply post(const std::string& path_and_query, const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"curl", "-sS", "-o", dir_.file("resp.body"), "-D", dir_.file("resp.headers"),
                                     "-w", "%{http_code}", "-X", "POST"};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back("http://127.0.0.1:" + std::to_string(port_) + path_and_query);
    std::string out;
    int rc = proflow::testing::runCommand(argv, &out);
    EXPECT_EQ(rc, 0) << "curl failed (curl is required for these tests): " << out;
    return {std::atoi(out.c_str()), readFile("resp.headers"), readFile("resp.body")};
  }

  std::string readFile(const std::string& name) {
    std::ifstream in(dir_.file(name), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  std::vector<Batch> batches() {
    std::lock_guard<std::mutex> lock(capture_->mu);
    return capture_->batches;
  }

  proflow::testing::TempDir dir_;
  telemetry::MetricsRegistry registry_;
  telemetry::ComponentTelemetry telemetry_{registry_, ComponentKind::kReceiver, "pyroscope"};
  Runtime runtime_{1, 2};
  std::shared_ptr<Capture> capture_ = std::make_shared<Capture>();
  NullHost host_;
  std::unique_ptr<Receiver> receiver_;
  int port_ = 0;
};

inline std::string testdata(const std::string& name) {
  return std::string(PROFLOW_SOURCE_DIR) + "/tests/receivers/pyroscope/testdata/" + name;
}

// Resource attribute value by key ("" when absent).
inline std::string resourceAttr(const otlp::ResourceProfiles& rp, std::string_view key) {
  for (const auto& kv : rp.resource().attributes())
    if (kv.key() == key) return kv.value().string_value();
  return {};
}

// String value of a profile attribute ("" when absent).
inline std::string profileAttr(const otlp::Request& r, const otlp::Profile& p, std::string_view key) {
  const auto& d = r.dictionary();
  for (int32_t i : p.attribute_indices()) {
    const auto& kv = d.attribute_table(i);
    if (dictString(d, kv.key_strindex()) == key)
      return kv.value().has_bool_value() ? (kv.value().bool_value() ? "true" : "false") : kv.value().string_value();
  }
  return {};
}

}  // namespace proflow::receivers::pyroscope::testing
