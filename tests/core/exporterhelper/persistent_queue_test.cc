// The persistent sending queue: what consume() acknowledged is on disk until delivered, survives a
// shutdown with the peer down, and is resent in order by the next start; what is on disk is read
// back as untrusted input (a damaged or hostile file is moved aside, the rest is sent).
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <fstream>
#include <mutex>
#include <thread>

#include "core/exporterhelper/exporter_helper.h"
#include "core/exporterhelper/persistent_store.h"
#include "core/exporterhelper/queue_record.h"
#include "core/flat/flat_batch.h"
#include "core/flat/flat_encode.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"
#include "tests/support/stand_ins.h"
#include "tests/support/flat_request.h"

namespace proflow::exporterhelper {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// A peer that is down (Unavailable) or up (records the service of every delivered batch), or that
// rejects everything for good.
class Peer final : public Sender {
 public:
  enum class Mode { kDown, kUp, kRejecting };
  explicit Peer(Mode mode) : mode_(mode) {}
  Status push(const Batch& batch, Deadline) override {
    if (mode_ == Mode::kDown) return Status::unavailable("peer down");
    if (mode_ == Mode::kRejecting) return Status::invalid("peer rejects this");
    std::lock_guard lock(mu_);
    delivered_.push_back(testing::serviceName(::proflow::testing::requestOf(batch), 0));
    return Status::ok();
  }
  std::vector<std::string> delivered() const {
    std::lock_guard lock(mu_);
    return delivered_;
  }

 private:
  Mode mode_;
  mutable std::mutex mu_;
  std::vector<std::string> delivered_;
};

using ::proflow::testing::NullHost;

class PersistentQueueTest : public ::testing::Test {
 protected:
  std::unique_ptr<ExporterHelper> make(Peer::Mode mode, Peer** peer_out, std::string name = "") {
    auto peer = std::make_unique<Peer>(mode);
    *peer_out = peer.get();
    ExporterHelperConfig c;
    c.retry_on_failure.initial_interval = 1ms;
    c.retry_on_failure.max_interval = 5ms;
    c.retry_on_failure.max_elapsed_time = 0s;  // retry until shutdown
    c.sending_queue.num_consumers = 1;         // one sender: delivery order is queue order
    c.sending_queue.directory = dir_.path().string();
    CreateSettings s{ComponentId{"otlp", std::move(name)}, ComponentKind::kExporter, spdlog::default_logger(),
                     &telemetry_, nullptr};
    return std::make_unique<ExporterHelper>(s, c, std::move(peer));
  }
  static Batch batch(const std::string& service) {
    return ::proflow::testing::batchOf(testing::makeRequest(service, {testing::makeProfile(3)}));
  }
  // The persisted batch files of exporter "otlp/<name>" (directory "otlp_<name>").
  std::vector<std::string> files(const std::string& sub, const std::string& suffix = ".batch") const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir_.path() / sub)) {
      std::string n = e.path().filename().string();
      if (n.ends_with(suffix)) out.push_back(n);
    }
    std::sort(out.begin(), out.end());
    return out;
  }
  static bool waitFor(const std::function<bool()>& cond) {
    for (auto until = Clock::now() + 10s; Clock::now() < until; std::this_thread::sleep_for(5ms))
      if (cond()) return true;
    return cond();
  }
  double metric(const std::string& name) { return metrics_.value(name, {{"exporter", "test"}}); }
  // Starts an exporter against a peer that is up, waits until `n` batches arrived and shuts it down.
  std::vector<std::string> deliverLeftovers(size_t n) {
    Peer* up;
    auto e = make(Peer::Mode::kUp, &up);
    EXPECT_TRUE(e->start(host_).isOk());
    EXPECT_TRUE(waitFor([&] { return up->delivered().size() == n; }));
    e->shutdown(Clock::now() + 5s);
    return up->delivered();
  }
  // Queues `services` (one batch each) while the peer is down, then stops: the batches stay on disk.
  std::vector<std::string> persistWhileDown(const std::vector<std::string>& services) {
    Peer* down;
    auto e = make(Peer::Mode::kDown, &down);
    EXPECT_TRUE(e->start(host_).isOk());
    for (const auto& s : services) EXPECT_TRUE(e->consume(batch(s)).isOk());
    e->shutdown(Clock::now() + 50ms);
    return files("otlp");
  }

  testing::TempDir dir_;
  telemetry::MetricsRegistry metrics_;
  telemetry::ComponentTelemetry telemetry_{metrics_, ComponentKind::kExporter, "test"};
  NullHost host_;
};

TEST_F(PersistentQueueTest, PendingBatchesSurviveARestartAndAreResentInOrder) {
  Peer* down;
  auto first = make(Peer::Mode::kDown, &down, "gw");
  ASSERT_TRUE(first->start(host_).isOk());
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(first->consume(batch("svc" + std::to_string(i))).isOk());
  EXPECT_EQ(files("otlp_gw").size(), 5u);  // on disk once acknowledged
  first->shutdown(Clock::now() + 50ms);
  first.reset();
  EXPECT_EQ(files("otlp_gw").size(), 5u);
  EXPECT_EQ(metric("proflow_exporter_dropped_batches_total"), 0);
  EXPECT_EQ(metric("proflow_exporter_failed_batches_total"), 0);

  Peer* up;
  auto second = make(Peer::Mode::kUp, &up, "gw");
  ASSERT_TRUE(second->start(host_).isOk());
  ASSERT_TRUE(waitFor([&] { return up->delivered().size() == 5; }));
  EXPECT_EQ(up->delivered(), (std::vector<std::string>{"svc0", "svc1", "svc2", "svc3", "svc4"}));
  ASSERT_TRUE(second->consume(batch("svc5")).isOk());  // numbering goes on after the old batches
  ASSERT_TRUE(waitFor([&] { return up->delivered().size() == 6; }));
  second->shutdown(Clock::now() + 5s);
  EXPECT_TRUE(files("otlp_gw").empty());
  EXPECT_EQ(metric("proflow_exporter_sent_batches_total"), 6);
}

TEST_F(PersistentQueueTest, FailedForGoodLeavesTheDiskAndIsCounted) {
  Peer* peer;
  auto e = make(Peer::Mode::kRejecting, &peer);
  ASSERT_TRUE(e->start(host_).isOk());
  ASSERT_TRUE(e->consume(batch("a")).isOk());
  ASSERT_TRUE(waitFor([&] { return metric("proflow_exporter_failed_batches_total") == 1; }));
  e->shutdown(Clock::now() + 5s);
  EXPECT_TRUE(files("otlp").empty());
}

TEST_F(PersistentQueueTest, UnreadableFileIsMovedAsideAndTheRestIsSent) {
  auto names = persistWhileDown({"lost", "kept"});
  ASSERT_EQ(names.size(), 2u);
  std::ofstream((dir_.path() / "otlp" / names[0]).string(), std::ios::trunc) << "\xff\xff not protobuf";

  EXPECT_EQ(deliverLeftovers(1), std::vector<std::string>{"kept"});
  EXPECT_EQ(files("otlp", ".corrupt"), std::vector<std::string>{names[0] + ".corrupt"});
  EXPECT_TRUE(files("otlp").empty());
  EXPECT_EQ(metric("proflow_exporter_queue_corrupt_batches_total"), 1);
}

TEST_F(PersistentQueueTest, TwoOwnersOfOneQueueDirectoryAreRefused) {
  Peer *a, *b;
  auto first = make(Peer::Mode::kUp, &a);
  auto second = make(Peer::Mode::kUp, &b);
  ASSERT_TRUE(first->start(host_).isOk());
  Status s = second->start(host_);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.toString();
  EXPECT_NE(s.message().find("in use by another process"), std::string::npos) << s.message();
  first->shutdown(Clock::now() + 1s);
  first.reset();
  EXPECT_TRUE(second->start(host_).isOk());  // the lock went with its owner
  second->shutdown(Clock::now() + 1s);
}

TEST_F(PersistentQueueTest, UnwritableDirectoryRefusesToStart) {
  std::string blocker = dir_.write("file", "x");
  Peer* peer;
  ExporterHelperConfig c;
  c.sending_queue.directory = blocker;  // a file, not a directory
  CreateSettings s{ComponentId{"otlp", ""}, ComponentKind::kExporter, spdlog::default_logger(), &telemetry_, nullptr};
  auto sender = std::make_unique<Peer>(Peer::Mode::kUp);
  peer = sender.get();
  ExporterHelper e(s, c, std::move(sender));
  Status st = e.start(host_);
  EXPECT_FALSE(st.isOk());
  EXPECT_NE(st.message().find(blocker), std::string::npos) << st.message();
  (void)peer;
}

// A file of the queue as the store writes it (no request metadata), put there by the test; `otlp`
// is the request's wire bytes.
std::string recordOf(const std::string& otlp) {
  const std::string payload = recordPayloadOf(nullptr, otlp);
  return recordHeader(payload) + payload;
}
std::string recordName(uint64_t seq, const char* suffix = ".batch") {
  char digits[32];
  std::snprintf(digits, sizeof digits, "%020llu", static_cast<unsigned long long>(seq));
  return digits + std::string(suffix);
}

// An ExportProfilesServiceRequest of one resource and one scope holding `n` empty profiles: two
// bytes of wire per profile, a whole flat::Profile row of memory each once decoded.
std::string emptyProfiles(size_t n) {
  auto lengthPrefixed = [](char tag, const std::string& body) {
    std::string out(1, tag);
    for (uint64_t v = body.size(); ; v >>= 7) {
      if (v < 0x80) {
        out.push_back(static_cast<char>(v));
        break;
      }
      out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    }
    return out + body;
  };
  std::string profiles;
  profiles.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) profiles.append("\x12\x00", 2);  // ScopeProfiles.profiles {}
  return lengthPrefixed('\x0a', lengthPrefixed('\x12', profiles));  // resource_profiles { scope_profiles {...} }
}

TEST_F(PersistentQueueTest, AFlippedBitIsMovedAsideInsteadOfDeliveredChanged) {
  auto names = persistWhileDown({"svc0", "kept"});
  ASSERT_EQ(names.size(), 2u);
  const std::string path = (dir_.path() / "otlp" / names[0]).string();
  std::string bytes = ::proflow::testing::readFile(path);
  const size_t at = bytes.find("svc0");
  ASSERT_NE(at, std::string::npos);
  bytes[at + 3] ^= 0x01;  // "svc0" -> "svc1": still a valid request, silently different data
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;

  EXPECT_EQ(deliverLeftovers(1), std::vector<std::string>{"kept"});
  EXPECT_EQ(files("otlp", ".corrupt"), std::vector<std::string>{names[0] + ".corrupt"});
  EXPECT_EQ(metric("proflow_exporter_queue_corrupt_batches_total"), 1);
}

TEST_F(PersistentQueueTest, AnOutOfRangeDictionaryIndexIsMovedAsideNotForwarded) {
  otlp::Request bad = testing::makeRequest("bad", {testing::makeProfile(3)});
  bad.mutable_resource_profiles(0)->mutable_scope_profiles(0)->mutable_profiles(0)->mutable_samples(0)->set_stack_index(
      1000000);
  {
    Peer* down;
    auto e = make(Peer::Mode::kDown, &down);
    ASSERT_TRUE(e->start(host_).isOk());
    ASSERT_TRUE(e->consume(::proflow::testing::batchOf(bad)).isOk());  // as a buggy or hostile writer would
    ASSERT_TRUE(e->consume(batch("kept")).isOk());
    e->shutdown(Clock::now() + 50ms);
  }
  EXPECT_EQ(deliverLeftovers(1), std::vector<std::string>{"kept"});
  EXPECT_EQ(files("otlp", ".corrupt").size(), 1u);
  EXPECT_EQ(metric("proflow_exporter_queue_corrupt_batches_total"), 1);
}

TEST_F(PersistentQueueTest, BareRequestFilesOfEarlierVersionsAreStillSent) {
  std::filesystem::create_directories(dir_.path() / "otlp");
  dir_.write("otlp/" + recordName(4, ".otlp"), flat::encode(batch("old").data()));
  persistWhileDown({"new"});  // numbered after the old file
  EXPECT_EQ(deliverLeftovers(2), (std::vector<std::string>{"old", "new"}));
  EXPECT_TRUE(files("otlp", ".corrupt").empty());
}

TEST_F(PersistentQueueTest, FilesThatWouldDecodeToGigabytesAreMovedAsideAndTheDaemonLives) {
  // Enough empty profiles to need twice the decode budget (512 MiB) of memory.
  const std::string payload = emptyProfiles((size_t{1} << 30) / sizeof(flat::Profile) + 1);
  std::filesystem::create_directories(dir_.path() / "otlp");
  dir_.write("otlp/" + recordName(1, ".otlp"), payload);  // bare request, as earlier versions wrote
  dir_.write("otlp/" + recordName(2), recordOf(payload));  // with a valid checksum
  dir_.write("otlp/" + recordName(3), recordOf(flat::encode(batch("kept").data())));
  EXPECT_EQ(deliverLeftovers(1), std::vector<std::string>{"kept"});
  EXPECT_EQ(files("otlp", ".corrupt"),
            (std::vector<std::string>{recordName(1, ".otlp.corrupt"), recordName(2, ".batch.corrupt")}));
  EXPECT_EQ(metric("proflow_exporter_queue_corrupt_batches_total"), 2);
}

TEST_F(PersistentQueueTest, AFifoInTheQueueDirectoryIsMovedAsideWithoutBlockingAWorker) {
  std::filesystem::create_directories(dir_.path() / "otlp");
  ASSERT_EQ(::mkfifo(dir_.file("otlp/" + recordName(1)).c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo(dir_.file("otlp/" + recordName(2, ".otlp")).c_str(), 0600), 0);
  dir_.write("otlp/" + recordName(3), recordOf(flat::encode(batch("kept").data())));
  EXPECT_EQ(deliverLeftovers(1), std::vector<std::string>{"kept"});  // and shutdown returned
  EXPECT_EQ(files("otlp", ".corrupt").size(), 2u);
  EXPECT_EQ(metric("proflow_exporter_queue_corrupt_batches_total"), 2);
}

}  // namespace
}  // namespace proflow::exporterhelper

namespace proflow::exporterhelper {
namespace {

// A tenant's header kept with its data (include_metadata) is on the data again after a restart:
// the record holds the request metadata, and a malformed metadata block is refused like any damage.
TEST(PersistentStoreMetadata, RequestMetadataSurvivesARestart) {
  testing::TempDir dir;
  const std::string queue = (dir.path() / "q").string();
  auto kept = std::make_shared<ClientMetadata>();
  kept->add("X-Scope-OrgID", "acme");
  kept->add("x-forwarded-for", "10.0.0.1");
  kept->add("X-Forwarded-For", "10.0.0.2");
  auto with_credentials = std::make_shared<ClientMetadata>(*kept);
  with_credentials->add("Authorization", "Bearer secret-token");
  with_credentials->add("Cookie", "session=s3cr3t");
  uint64_t with = 0, without = 0;
  {
    PersistentStore store(queue, /*fsync=*/false);
    std::vector<uint64_t> leftover;
    ASSERT_TRUE(store.open(&leftover).isOk());
    Batch b = ::proflow::testing::batchOf(testing::makeRequest("acme-svc", {testing::makeProfile(2)}));
    b.setMetadata(with_credentials);
    ASSERT_TRUE(store.append(b, &with).isOk());
    ASSERT_TRUE(store.append(::proflow::testing::batchOf(testing::makeRequest("plain", {testing::makeProfile(1)})),
                             &without).isOk());
  }
  PersistentStore store(queue, false);
  std::vector<uint64_t> leftover;
  ASSERT_TRUE(store.open(&leftover).isOk());
  ASSERT_EQ(leftover, (std::vector<uint64_t>{with, without}));
  Batch loaded;
  ASSERT_TRUE(store.load(with, &loaded).isOk());
  ASSERT_TRUE(loaded.metadata());
  EXPECT_EQ(*loaded.metadata(), *kept) << "credentials are never written to the queue";
  for (const auto& e : std::filesystem::directory_iterator(queue)) {
    std::ifstream in(e.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(bytes.find("secret"), std::string::npos) << e.path();
  }
  EXPECT_EQ(testing::serviceName(::proflow::testing::requestOf(loaded), 0), "acme-svc");
  ASSERT_TRUE(store.load(without, &loaded).isOk());
  EXPECT_FALSE(loaded.metadata());

  ClientMetadataPtr metadata;
  std::string_view otlp;
  const std::string cut = std::string("\x08\x00\x00\x00", 4) + std::string("\x03\x00\x00\x00key", 7);
  EXPECT_FALSE(splitRecordPayload(cut, 2, &metadata, &otlp).isOk());
  const std::string huge_count = std::string("\x0b\x00\x00\x00", 4) + std::string("\x03\x00\x00\x00key\xff\xff\xff\xff", 11);
  EXPECT_FALSE(splitRecordPayload(huge_count, 2, &metadata, &otlp).isOk());
}

}  // namespace
}  // namespace proflow::exporterhelper
