// The recording receiver with a decoder of its own (folded text stands in for a recording format):
// what it does around the decoder — inflating, limits, the in-flight claim, attributes, the
// directory's file name and time, refusals — is the same for every format that uses it.
#include <gtest/gtest.h>
#include <gmock/gmock.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <mutex>

#include "core/compression/compression.h"
#include "core/flat/flat_attributes.h"
#include "core/formats/folded/folded.h"
#include "core/receiverhelper/recording_receiver.h"
#include "core/runtime/runtime.h"
#include "tests/support/stand_ins.h"
#include "tests/support/daemon.h"
#include "tests/support/raw_http.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// What the decoder was handed, for the tests to look at.
struct Seen {
  std::mutex mu;
  std::string bytes;
  uint64_t end_time = 0;
  bool could_reserve = false;
  int calls = 0;
};

class RecordingReceiverTest : public ::testing::Test {
 protected:
  // Decodes folded text; "empty" decodes to nothing; "claim N" asks the in-flight claim for N bytes.
  receiverhelper::RecordingDecoder decoder() {
    return [seen = seen_](const receiverhelper::Recording& r, flat::Batch* out) {
      {
        std::lock_guard lock(seen->mu);
        seen->bytes = std::string(r.bytes);
        seen->end_time = r.end_time_unix_nano;
        seen->could_reserve = static_cast<bool>(r.reserve_memory);
        ++seen->calls;
      }
      if (r.bytes == "empty") return Status::ok();
      if (r.bytes.rfind("claim ", 0) == 0) {
        if (!r.reserve_memory) return Status::ok();
        return r.reserve_memory(std::stoull(std::string(r.bytes.substr(6))));
      }
      return folded::foldedToFlat(r.bytes, folded::FoldedOptions{}, pprof::PprofToOtlpOptions{}, 0, {}, out);
    };
  }
  std::unique_ptr<receiverhelper::RecordingReceiver> make(receiverhelper::RecordingInputs inputs) {
    auto r = std::make_unique<receiverhelper::RecordingReceiver>(settings_, std::move(inputs), decoder(), capture_);
    EXPECT_TRUE(r->start(host_).isOk());
    return r;
  }
  static receiverhelper::RecordingInputs httpInputs() {
    receiverhelper::RecordingInputs in;
    in.kind = "test";
    in.path = "/v1/test";
    in.listener.endpoint = "127.0.0.1:0";
    return in;
  }
  // Directory mode only: *.txt files of `in`, polled every 20 ms, picked up at once.
  static receiverhelper::RecordingInputs directoryInputs(const fs::path& in) {
    receiverhelper::RecordingInputs inputs;
    inputs.kind = "test";
    inputs.path = "/v1/test";
    DirectoryWatchConfig watch;
    watch.path = in.string();
    watch.suffix = ".txt";
    watch.poll_interval = std::chrono::milliseconds(20);
    watch.min_age = std::chrono::milliseconds(0);
    inputs.directory = watch;
    return inputs;
  }
  static std::string resource(const Batch& b, const std::string& key) {
    const flat::Batch& f = b.data();
    return flat::resourceAttribute(f, f.resources[0], key).value_or("");
  }

  Runtime runtime_{1, 2};
  telemetry::MetricsRegistry metrics_;
  telemetry::ComponentTelemetry telemetry_{metrics_, ComponentKind::kReceiver, "test"};
  CreateSettings settings_{ComponentId{"test", ""}, ComponentKind::kReceiver, spdlog::default_logger(), &telemetry_,
                           &runtime_};
  std::shared_ptr<testing::CaptureConsumer> capture_ = std::make_shared<testing::CaptureConsumer>();
  std::shared_ptr<Seen> seen_ = std::make_shared<Seen>();
  testing::NullHost host_;
  testing::TempDir dir_;
};

TEST_F(RecordingReceiverTest, GzipBodyIsInflatedAndTheRequestsAttributesOverrideConfiguredOnes) {
  auto inputs = httpInputs();
  inputs.attributes = {{"service.name", "from-config"}, {"team", "payments"}};
  auto r = make(std::move(inputs));
  std::string gz;
  ASSERT_TRUE(compression::compress(compression::Codec::kGzip, "main;work 3\nmain;idle 1\n", gz).isOk());
  const auto resp = testing::rawPost(r->port(), "/v1/test?service.name=from-query", {}, gz);
  EXPECT_EQ(resp.status, 200) << resp.body;
  ASSERT_EQ(capture_->count(), 1u);
  EXPECT_EQ(resource(capture_->batches[0], "service.name"), "from-query");
  EXPECT_EQ(resource(capture_->batches[0], "team"), "payments");
  EXPECT_EQ(capture_->batches[0].counts().samples, 2u);
  std::lock_guard lock(seen_->mu);
  EXPECT_EQ(seen_->bytes, "main;work 3\nmain;idle 1\n");  // the decoder sees the inflated recording
  EXPECT_EQ(seen_->end_time, 0u);                          // HTTP: unknown
  EXPECT_TRUE(seen_->could_reserve);                       // the request's in-flight claim
  r->shutdown(std::chrono::steady_clock::now());
}

TEST_F(RecordingReceiverTest, DecoderRefusalIs400WithItsReasonAndTheReceiverKeepsServing) {
  auto r = make(httpInputs());
  const auto bad = testing::rawPost(r->port(), "/v1/test", {}, "main;work not-a-number\n");
  EXPECT_EQ(bad.status, 400);
  EXPECT_THAT(bad.body, HasSubstr("line 1"));
  EXPECT_EQ(capture_->count(), 0u);
  EXPECT_EQ(testing::rawPost(r->port(), "/v1/test", {}, "main 1\n").status, 200);
  EXPECT_EQ(capture_->count(), 1u);
  // A recording without samples is accepted and sends nothing on.
  EXPECT_EQ(testing::rawPost(r->port(), "/v1/test", {}, "empty").status, 200);
  EXPECT_EQ(capture_->count(), 1u);
  r->shutdown(std::chrono::steady_clock::now());
}

TEST_F(RecordingReceiverTest, BombsAndClaimsOverTheBudgetAre413AndARefusingPipelineIs429) {
  auto inputs = httpInputs();
  inputs.listener.max_request_body_size = config::ByteSize(1 << 20);
  inputs.listener.server_limits.max_in_flight_bytes = config::ByteSize(4 << 20);
  auto r = make(std::move(inputs));
  // 8 MiB of one frame, gzip'd to a few KiB: over the 1 MiB limit once inflated.
  std::string bomb;
  std::string text;
  while (text.size() < (8u << 20)) text += "main;work 1\n";
  ASSERT_TRUE(compression::compress(compression::Codec::kGzip, text, bomb).isOk());
  ASSERT_LT(bomb.size(), 1u << 20);
  EXPECT_EQ(testing::rawPost(r->port(), "/v1/test", {}, bomb).status, 413);
  {
    std::lock_guard lock(seen_->mu);
    EXPECT_EQ(seen_->calls, 0);  // refused before decoding
  }
  // A decoder asking for more than the whole in-flight budget.
  const auto claim = testing::rawPost(r->port(), "/v1/test", {}, "claim " + std::to_string(64 << 20));
  EXPECT_EQ(claim.status, 413) << claim.body;
  EXPECT_THAT(claim.body, HasSubstr("decoded recording"));
  // The pipeline refusing (a full queue) is retryable: 429 with Retry-After.
  capture_->answer = Status::exhausted("queue is full");
  const auto full = testing::rawPost(r->port(), "/v1/test", {}, "main 1\n");
  EXPECT_EQ(full.status, 429);
  EXPECT_THAT(full.headers, HasSubstr("Retry-After"));
  r->shutdown(std::chrono::steady_clock::now());
}

TEST_F(RecordingReceiverTest, DirectoryFilesCarryTheirNameAndModificationTimeAndNoClaim) {
  const fs::path in = dir_.path() / "in";
  fs::create_directories(in);
  receiverhelper::RecordingInputs inputs = directoryInputs(in);
  const std::string file = (in / "app-1.txt").string();
  {
    std::ofstream(file) << "main;work 5\n";
  }
  // A known modification time: 2026-01-01T00:00:00Z.
  const auto when = std::chrono::sys_seconds(std::chrono::seconds(1767225600));
  fs::last_write_time(file, std::chrono::file_clock::from_sys(when));
  auto r = make(std::move(inputs));
  EXPECT_EQ(r->port(), 0);  // no endpoint, no listener
  ASSERT_TRUE(testing::waitFor([&] { return capture_->count() == 1; }, std::chrono::seconds(20)));
  EXPECT_EQ(resource(capture_->batches[0], "test.file.name"), "app-1.txt");
  EXPECT_TRUE(testing::waitFor([&] { return !fs::exists(file); }, std::chrono::seconds(20)));  // after: delete
  std::lock_guard lock(seen_->mu);
  EXPECT_EQ(seen_->end_time, 1767225600ull * 1'000'000'000ull);
  EXPECT_FALSE(seen_->could_reserve);
  r->shutdown(std::chrono::steady_clock::now());
}

TEST_F(RecordingReceiverTest, DirectoryRefusesSymbolicLinksAndFilesOverTheBodyLimitAndMovesThemAside) {
  const fs::path in = dir_.path() / "in";
  fs::create_directories(in);
  // Outside the watched directory: what a link could point the receiver at.
  const fs::path secret = dir_.path() / "secret";
  { std::ofstream(secret) << "main;secret 9\n"; }
  fs::create_symlink(secret, in / "link.txt");
  { std::ofstream(in / "big.txt") << "main;work 5\n" << std::string(200, '#') << "\n"; }  // over the limit below
  { std::ofstream(in / "ok.txt") << "main;work 5\n"; }
  receiverhelper::RecordingInputs inputs = directoryInputs(in);
  inputs.listener.max_request_body_size = config::ByteSize(64);
  auto r = make(std::move(inputs));
  ASSERT_TRUE(testing::waitFor([&] { return fs::exists(in / "link.txt.failed") && fs::exists(in / "big.txt.failed"); },
                               std::chrono::seconds(20)));
  ASSERT_TRUE(testing::waitFor([&] { return capture_->count() == 1; }, std::chrono::seconds(20)));
  r->shutdown(std::chrono::steady_clock::now());
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(in / "link.txt.failed")));  // the link moved, not its target
  EXPECT_TRUE(fs::exists(secret));
  EXPECT_FALSE(fs::exists(in / "ok.txt"));  // delivered and deleted
  EXPECT_EQ(metrics_.value(telemetry_.prefix() + "test_files_failed_total", telemetry_.labels()), 2);
  std::lock_guard lock(seen_->mu);
  EXPECT_EQ(seen_->calls, 1);  // only ok.txt reached the decoder: the link was never followed
  EXPECT_EQ(seen_->bytes.find("secret"), std::string::npos);
}

}  // namespace
}  // namespace proflow
