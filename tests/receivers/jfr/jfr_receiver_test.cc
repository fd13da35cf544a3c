// The jfr receiver with real JDK recordings (made at test time by the JFR format tests' script).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>
#include <mutex>
#include <spdlog/spdlog.h>

#include "core/runtime/runtime.h"
#include "receivers/jfr/factory.h"
#include "receivers/jfr/jfr_receiver.h"
#include "tests/core/formats/jfr/wild_recordings.h"
#include "tests/support/stand_ins.h"
#include "tests/support/daemon.h"
#include "tests/support/temp_dir.h"
#include "tests/support/flat_request.h"

namespace proflow {
namespace {

namespace fs = std::filesystem;

// JDK recordings shared with tests/core/formats/jfr (generated once per build directory).
std::string recording(const std::string& name) {
  const std::string src = std::string(PROFLOW_SOURCE_DIR) + "/tests/core/formats/jfr/testdata";
  const std::string out = std::string(PROFLOW_BINARY_DIR) + "/tests/core/formats/jfr/recordings";
  std::string log;
  int rc = testing::runCommand({"sh", src + "/make_recordings.sh", src, out}, &log);
  EXPECT_EQ(rc, 0) << "making JDK recordings failed (needs openjdk-17-jdk-headless): " << log;
  return out + "/" + name;
}

class JfrReceiverTest : public ::testing::Test {
 protected:
  std::unique_ptr<receiverhelper::RecordingReceiver> make(receivers::jfr::JfrReceiverConfig cfg) {
    CreateSettings s{ComponentId{"jfr", ""}, ComponentKind::kReceiver, spdlog::default_logger(), &telemetry_, &runtime_};
    settings_ = s;
    return receivers::jfr::makeJfrReceiver(settings_, cfg, capture_);
  }
  std::string attribute(const Batch& b, const std::string& key) {
    for (const otlp::Request r = ::proflow::testing::requestOf(b); const auto& kv : r.resource_profiles(0).resource().attributes())
      if (kv.key() == key) return kv.value().string_value();
    return "";
  }
  int post(int port, const std::string& file, const std::string& query = "") {
    std::string out;
    testing::runCommand({"curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@" + file,
                         "http://127.0.0.1:" + std::to_string(port) + "/v1/jfr" + query},
                        &out);
    return std::atoi(out.c_str());
  }

  Runtime runtime_{1, 2};
  telemetry::MetricsRegistry metrics_;
  telemetry::ComponentTelemetry telemetry_{metrics_, ComponentKind::kReceiver, "jfr"};
  CreateSettings settings_;
  std::shared_ptr<testing::CaptureConsumer> capture_ = std::make_shared<testing::CaptureConsumer>();
  testing::NullHost host_;
  testing::TempDir dir_;
};

TEST_F(JfrReceiverTest, PostedRecordingsBecomeProfilesWithAttributes) {
  const std::string rec = recording("profile.jfr");
  receivers::jfr::JfrReceiverConfig cfg;
  cfg.endpoint = "127.0.0.1:0";
  cfg.attributes = {{"service.name", "checkout"}};
  auto r = make(cfg);
  ASSERT_TRUE(r->start(host_).isOk());
  EXPECT_EQ(post(r->port(), rec, "?deployment.environment=test"), 200);
  std::string out;
  ASSERT_EQ(testing::runCommand({"sh", "-c", "gzip -c '" + rec + "' > " + dir_.file("rec.jfr.gz")}, &out), 0);
  EXPECT_EQ(post(r->port(), dir_.file("rec.jfr.gz")), 200);
  r->shutdown(std::chrono::steady_clock::now());

  ASSERT_EQ(capture_->batches.size(), 2u);
  const Batch& b = capture_->batches[0];
  EXPECT_EQ(attribute(b, "service.name"), "checkout");
  EXPECT_EQ(attribute(b, "deployment.environment"), "test");
  bool has_cpu = false;
  const otlp::Request first = ::proflow::testing::requestOf(b);
  const auto& d = first.dictionary();
  for (const auto& sp : first.resource_profiles(0).scope_profiles())
    for (const auto& p : sp.profiles())
      if (d.string_table(p.sample_type().type_strindex()) == "cpu" && p.samples_size() > 0) has_cpu = true;
  EXPECT_TRUE(has_cpu);
  EXPECT_EQ(capture_->batches[1].counts().samples, b.counts().samples);  // gzip body, same recording
}

// Function names of every batch captured, with how many hold a per-run generated part.
size_t perRunNames(const std::vector<Batch>& batches, size_t* lambdas) {
  size_t per_run = 0;
  for (const Batch& b : batches) {
    const otlp::Request r = ::proflow::testing::requestOf(b);
    const auto& d = r.dictionary();
    for (const auto& f : d.function_table()) {
      const std::string& name = d.string_table(f.name_strindex());
      per_run += testing::hasPerRunPart(name) ? 1 : 0;
      *lambdas += name.find("$$Lambda") != std::string::npos ? 1 : 0;
    }
  }
  return per_run;
}

// async-profiler's lambda classes (App$$Lambda.0x…) are merged by default, kept with the option.
TEST_F(JfrReceiverTest, GeneratedClassNamesAreMergedUnlessKept) {
  for (bool keep : {false, true}) {
    receivers::jfr::JfrReceiverConfig cfg;
    cfg.endpoint = "127.0.0.1:0";
    cfg.keep_generated_names = keep;
    capture_->batches.clear();
    auto r = make(cfg);
    ASSERT_TRUE(r->start(host_).isOk());
    EXPECT_EQ(post(r->port(), testing::wildRecording("wall")), 200);
    r->shutdown(std::chrono::steady_clock::now());
    ASSERT_EQ(capture_->batches.size(), 1u);
    size_t lambdas = 0;
    const size_t per_run = perRunNames(capture_->batches, &lambdas);
    EXPECT_GT(lambdas, 0u);
    if (keep) EXPECT_GT(per_run, 0u);
    else EXPECT_EQ(per_run, 0u);
  }
}

TEST_F(JfrReceiverTest, DamagedRecordingIs400AndRefusalIs429) {
  const std::string rec = recording("default.jfr");
  std::string data = testing::readFile(rec);
  auto truncated = dir_.write("cut.jfr", data.substr(0, data.size() / 2));
  receivers::jfr::JfrReceiverConfig cfg;
  cfg.endpoint = "127.0.0.1:0";
  auto r = make(cfg);
  ASSERT_TRUE(r->start(host_).isOk());
  EXPECT_EQ(post(r->port(), truncated), 400);
  EXPECT_EQ(post(r->port(), dir_.write("junk.jfr", "definitely not a recording")), 400);
  capture_->answer = Status::exhausted("queue full");
  EXPECT_EQ(post(r->port(), rec), 429);
  capture_->answer = Status::ok();
  EXPECT_EQ(post(r->port(), rec), 200);  // still serving
  r->shutdown(std::chrono::steady_clock::now());
  EXPECT_EQ(capture_->batches.size(), 1u);
}

bool waitUntil(const std::function<bool()>& cond) {
  for (int i = 0; i < 600 && !cond(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return cond();
}

TEST_F(JfrReceiverTest, DirectoryModePicksUpFinishedFilesOnly) {
  const std::string rec = recording("contention.jfr");
  const auto in = dir_.path() / "in", done = dir_.path() / "done";
  fs::create_directories(in);
  const auto old = fs::file_time_type::clock::now() - std::chrono::minutes(5);
  fs::copy_file(rec, in / "finished.jfr");
  fs::last_write_time(in / "finished.jfr", old);
  fs::copy_file(rec, in / "fresh.jfr");  // just written: too young to touch
  std::ofstream(in / "broken.jfr", std::ios::binary) << testing::readFile(rec).substr(0, 1000);
  fs::last_write_time(in / "broken.jfr", old);
  fs::copy_file(rec, in / "notes.txt");  // wrong suffix
  fs::last_write_time(in / "notes.txt", old);

  receivers::jfr::JfrReceiverConfig cfg;
  cfg.endpoint = "";
  cfg.directory = receivers::jfr::DirectoryConfig{};
  cfg.directory->path = in.string();
  cfg.directory->after = "move";
  cfg.directory->move_to = done.string();
  cfg.directory->poll_interval = std::chrono::milliseconds(100);
  cfg.directory->min_age = std::chrono::seconds(30);
  auto r = make(cfg);
  ASSERT_TRUE(r->start(host_).isOk());
  ASSERT_TRUE(waitUntil([&] { return fs::exists(done / "finished.jfr") && fs::exists(done / "broken.jfr.failed"); }));
  r->shutdown(std::chrono::steady_clock::now());

  EXPECT_TRUE(fs::exists(in / "fresh.jfr"));
  EXPECT_TRUE(fs::exists(in / "notes.txt"));
  EXPECT_FALSE(fs::exists(in / "finished.jfr"));
  ASSERT_EQ(capture_->batches.size(), 1u);
  EXPECT_EQ(attribute(capture_->batches[0], "jfr.file.name"), "finished.jfr");
  EXPECT_EQ(metrics_.value("proflow_receiver_jfr_files_failed_total", {{"receiver", "jfr"}}), 1);
}

TEST_F(JfrReceiverTest, DirectoryModeKeepsRefusedFilesForTheNextPoll) {
  const std::string rec = recording("default.jfr");
  const auto in = dir_.path() / "in";
  fs::create_directories(in);
  fs::copy_file(rec, in / "a.jfr");
  fs::last_write_time(in / "a.jfr", fs::file_time_type::clock::now() - std::chrono::minutes(5));
  capture_->answer = Status::exhausted("memory limit");

  receivers::jfr::JfrReceiverConfig cfg;
  cfg.endpoint = "";
  cfg.directory = receivers::jfr::DirectoryConfig{};
  cfg.directory->path = in.string();
  cfg.directory->poll_interval = std::chrono::milliseconds(100);
  cfg.directory->min_age = std::chrono::seconds(1);
  auto r = make(cfg);
  ASSERT_TRUE(r->start(host_).isOk());
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // several polls, all refused
  EXPECT_TRUE(fs::exists(in / "a.jfr"));
  {
    std::lock_guard lock(capture_->mu);
    capture_->answer = Status::ok();
  }
  ASSERT_TRUE(waitUntil([&] { return !fs::exists(in / "a.jfr"); }));  // after: delete
  r->shutdown(std::chrono::steady_clock::now());
  EXPECT_EQ(capture_->batches.size(), 1u);
}

}  // namespace
}  // namespace proflow
