// The perf receiver over a real socket and in directory mode, with the committed recording of the
// perf format tests (tests/core/formats/perf/testdata) and its perf script text.
#include "receivers/perf/perf_receiver.h"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "core/flat/flat_attributes.h"
#include "core/runtime/runtime.h"
#include "tests/support/stand_ins.h"
#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

namespace fs = std::filesystem;

std::string fixture(const std::string& name) {
  return std::string(PROFLOW_SOURCE_DIR) + "/tests/core/formats/perf/testdata/" + name;
}

class PerfReceiverTest : public ::testing::Test {
 protected:
  std::unique_ptr<receiverhelper::RecordingReceiver> make(receivers::perf::PerfReceiverConfig cfg) {
    settings_ = CreateSettings{ComponentId{"perf", ""}, ComponentKind::kReceiver, spdlog::default_logger(), &telemetry_,
                               &runtime_};
    return receivers::perf::makePerfReceiver(settings_, cfg, capture_);
  }
  // POSTs `file`; returns the HTTP status and fills `body` with the answer.
  int post(int port, const std::string& file, std::string* body = nullptr, const std::string& query = "") {
    std::string code;
    const std::string answer = dir_.file("answer.txt");
    testing::runCommand({"curl", "-sS", "-o", answer, "-w", "%{http_code}", "--data-binary", "@" + file,
                         "http://127.0.0.1:" + std::to_string(port) + "/v1/perf" + query},
                        &code);
    if (body) *body = testing::readFile(answer);
    return std::atoi(code.c_str());
  }
  static std::string resource(const Batch& b, const std::string& key) {
    const flat::Batch& f = b.data();
    return flat::resourceAttribute(f, f.resources[0], key).value_or("");
  }

  Runtime runtime_{1, 2};
  telemetry::MetricsRegistry metrics_;
  telemetry::ComponentTelemetry telemetry_{metrics_, ComponentKind::kReceiver, "perf"};
  CreateSettings settings_;
  std::shared_ptr<testing::CaptureConsumer> capture_ = std::make_shared<testing::CaptureConsumer>();
  testing::NullHost host_;
  testing::TempDir dir_;
};

TEST_F(PerfReceiverTest, PerfDataAndPerfScriptBodiesBecomeProfiles) {
  receivers::perf::PerfReceiverConfig cfg;
  cfg.endpoint = "127.0.0.1:0";
  cfg.attributes = {{"service.name", "checkout"}};
  auto r = make(cfg);
  ASSERT_TRUE(r->start(host_).isOk());
  EXPECT_EQ(post(r->port(), fixture("workload.perf.data"), nullptr, "?deployment.environment=test"), 200);
  EXPECT_EQ(post(r->port(), fixture("workload.perf-script.txt")), 200);
  std::string out;
  ASSERT_EQ(
      testing::runCommand({"sh", "-c", "gzip -c '" + fixture("workload.perf.data") + "' > " + dir_.file("w.gz")}, &out),
      0);
  EXPECT_EQ(post(r->port(), dir_.file("w.gz")), 200);
  r->shutdown(std::chrono::steady_clock::now());

  ASSERT_EQ(capture_->batches.size(), 3u);
  const Batch& b = capture_->batches[0];
  EXPECT_EQ(resource(b, "service.name"), "checkout");
  EXPECT_EQ(resource(b, "deployment.environment"), "test");
  EXPECT_EQ(resource(b, "host.arch"), "amd64");
  // Periods and counts per event: 169 samples in each form.
  for (const Batch& x : capture_->batches) {
    ASSERT_EQ(x.data().profiles.size(), 2u);
    EXPECT_EQ(x.data().timestamps.size(), 169u);
  }
  EXPECT_EQ(capture_->batches[2].counts().samples, b.counts().samples);  // gzip body, same recording
}

TEST_F(PerfReceiverTest, DamagedRecordingsAre400WithTheReasonAndRefusalIs429) {
  const std::string data = testing::readFile(fixture("workload.perf.data"));
  receivers::perf::PerfReceiverConfig cfg;
  cfg.endpoint = "127.0.0.1:0";
  auto r = make(cfg);
  ASSERT_TRUE(r->start(host_).isOk());
  std::string body;
  EXPECT_EQ(post(r->port(), dir_.write("cut.data", data.substr(0, data.size() / 2)), &body), 400);
  EXPECT_NE(body.find("perf.data: offset"), std::string::npos) << body;
  std::string flipped = data;
  flipped[42] = static_cast<char>(flipped[42] ^ 0x40);
  EXPECT_EQ(post(r->port(), dir_.write("flipped.data", flipped), &body), 400);
  EXPECT_NE(body.find("data section"), std::string::npos) << body;
  EXPECT_EQ(post(r->port(), dir_.write("junk", "definitely not a recording"), &body), 400);
  capture_->answer = Status::exhausted("queue full");
  EXPECT_EQ(post(r->port(), fixture("workload.perf.data")), 429);
  capture_->answer = Status::ok();
  EXPECT_EQ(post(r->port(), fixture("workload.perf.data")), 200);  // still serving
  r->shutdown(std::chrono::steady_clock::now());
  EXPECT_EQ(capture_->batches.size(), 1u);
}

bool waitUntil(const std::function<bool()>& cond) {
  for (int i = 0; i < 600 && !cond(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return cond();
}

TEST_F(PerfReceiverTest, DirectoryModePicksUpFinishedRecordings) {
  const std::string data = fixture("workload.perf.data");
  const auto in = dir_.path() / "in", done = dir_.path() / "done";
  fs::create_directories(in);
  const auto old = fs::file_time_type::clock::now() - std::chrono::minutes(5);
  fs::copy_file(data, in / "finished.data");
  fs::last_write_time(in / "finished.data", old);
  fs::copy_file(data, in / "fresh.data");  // just written: too young to touch
  std::ofstream(in / "broken.data", std::ios::binary) << testing::readFile(data).substr(0, 1000);
  fs::last_write_time(in / "broken.data", old);

  receivers::perf::PerfReceiverConfig cfg;
  cfg.endpoint = "";
  cfg.directory = receivers::perf::DirectoryConfig{};
  cfg.directory->path = in.string();
  cfg.directory->after = "move";
  cfg.directory->move_to = done.string();
  cfg.directory->poll_interval = std::chrono::milliseconds(100);
  cfg.directory->min_age = std::chrono::seconds(30);
  auto r = make(cfg);
  ASSERT_TRUE(r->start(host_).isOk());
  ASSERT_TRUE(waitUntil([&] { return fs::exists(done / "finished.data") && fs::exists(done / "broken.data.failed"); }));
  r->shutdown(std::chrono::steady_clock::now());

  EXPECT_TRUE(fs::exists(in / "fresh.data"));
  ASSERT_EQ(capture_->batches.size(), 1u);
  EXPECT_EQ(resource(capture_->batches[0], "perf.file.name"), "finished.data");
  EXPECT_EQ(metrics_.value("proflow_receiver_perf_files_failed_total", {{"receiver", "perf"}}), 1);
  EXPECT_EQ(metrics_.value("proflow_receiver_perf_files_ingested_total", {{"receiver", "perf"}}), 1);
  // The file's modification time anchors its samples: the last one is at that time (5 min ago).
  const auto& stamps = capture_->batches[0].data().timestamps;
  const uint64_t last = *std::max_element(stamps.begin(), stamps.end());
  const uint64_t expected = static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::file_clock::to_sys(old).time_since_epoch())
          .count());
  EXPECT_LE(last > expected ? last - expected : expected - last, 1'000'000u);
}

}  // namespace
}  // namespace proflow
