#include <fcntl.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <future>

#include "core/config/component_config.h"
#include "core/config/config_loader.h"
#include "exporters/file/factory.h"
#include "tests/exporters/file/test_util.h"
#include "tests/support/component_config.h"
#include "tests/support/daemon.h"
#include "tests/support/otlp_files.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"
#include "tests/support/flat_request.h"

namespace proflow::exporters::file {
namespace {

using ::google::protobuf::util::MessageDifferencer;
using ::proflow::testing::makeProfile;
using ::proflow::testing::makeRequest;
using ::proflow::testing::readFile;
using ::proflow::testing::TempDir;
using ::testing::HasSubstr;

std::vector<otlp::Request> sampleRequests() {
  return {makeRequest("checkout", {makeProfile(3, 0)}),
          makeRequest("payments", {makeProfile(5, 1), makeProfile(2, 2)}),
          makeRequest("search", {makeProfile(1, 3)})};
}

// `proto` is the Collector file exporter's name of the same framing.
class FileExporterProto : public ::testing::TestWithParam<const char*> {};
INSTANTIATE_TEST_SUITE_P(Names, FileExporterProto, ::testing::Values("otlp_proto", "proto"));

TEST_P(FileExporterProto, RecordsReadBackFieldByField) {
  TempDir dir;
  Harness h;
  FileExporterConfig c;
  c.path = dir.file("out/profiles.binpb");
  c.format = GetParam();
  auto exporter = h.make(c);
  ASSERT_TRUE(exporter->start(h.host).isOk());
  auto sent = sampleRequests();
  for (const auto& r : sent) ASSERT_TRUE(exporter->consume(::proflow::testing::batchOf(otlp::Request(r))).isOk());
  exporter->shutdown(Deadline::clock::now());

  const std::string data = readFile(c.path);
  // Framing: the first 4 bytes are the big-endian size of the first message.
  ASSERT_GE(data.size(), 4u);
  const uint32_t first = (uint32_t(uint8_t(data[0])) << 24) | (uint32_t(uint8_t(data[1])) << 16) |
                         (uint32_t(uint8_t(data[2])) << 8) | uint8_t(data[3]);
  EXPECT_EQ(first, sent[0].ByteSizeLong());

  const std::vector<otlp::Request> got = testing::readOtlpProtoFile(c.path);
  ASSERT_EQ(got.size(), sent.size());
  for (size_t i = 0; i < sent.size(); ++i) {
    std::string diff;
    MessageDifferencer d;
    d.ReportDifferencesToString(&diff);
    EXPECT_TRUE(d.Compare(sent[i], got[i])) << "record " << i << ": " << diff;
  }
  // Spot checks through the dictionary, independent of the differencer.
  EXPECT_EQ(testing::serviceName(got[1], 0), "payments");
  EXPECT_EQ(got[1].resource_profiles(0).scope_profiles(0).profiles_size(), 2);
  const auto& s = got[1].resource_profiles(0).scope_profiles(0).profiles(0).samples(0);
  EXPECT_EQ(s.values(0), 101);
  EXPECT_EQ(testing::stackFrames(got[1].dictionary(), s.stack_index()),
            (std::vector<std::string>{"parse", "handle_request", "main"}));

  EXPECT_EQ(h.metric("proflow_exporter_sent_batches_total"), 3);
  EXPECT_EQ(h.metric("proflow_exporter_sent_profiles_total"), 4);
  EXPECT_EQ(h.metric("proflow_exporter_sent_samples_total"), 11);
  EXPECT_EQ(h.metric("proflow_exporter_bytes_out_total"), static_cast<double>(data.size()));
  EXPECT_EQ(h.metric("proflow_exporter_failed_batches_total"), 0);
}

TEST(FileExporter, AppendsToAnExistingFileAcrossRestarts) {
  TempDir dir;
  Harness h;
  FileExporterConfig c;
  c.path = dir.file("p.binpb");
  c.format = "otlp_proto";
  c.flush_interval = config::Duration{};  // sync after every write
  for (int round = 0; round < 2; ++round) {
    auto e = h.make(c);
    ASSERT_TRUE(e->start(h.host).isOk());
    ASSERT_TRUE(e->consume(::proflow::testing::batchOf(makeRequest("svc" + std::to_string(round), {makeProfile(1)}))).isOk());
    e->shutdown(Deadline::clock::now());
  }
  const std::vector<otlp::Request> got = testing::readOtlpProtoFile(c.path);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(testing::serviceName(got[0], 0), "svc0");
  EXPECT_EQ(testing::serviceName(got[1], 0), "svc1");
}

TEST(FileExporter, StartFailsClearlyWhenThePathCannotBeCreated) {
  TempDir dir;
  // A regular file where a directory is needed fails even for root, unlike permission bits.
  const std::string blocker = dir.write("blocker", "x");
  Harness h;
  FileExporterConfig c;
  c.path = blocker + "/sub/profiles.jsonl";
  c.format = "otlp_proto";
  auto e = h.make(c);
  Status s = e->start(h.host);
  ASSERT_FALSE(s.isOk());
  EXPECT_THAT(s.message(), HasSubstr(blocker));
  EXPECT_THAT(s.message(), HasSubstr("cannot create directory"));
  // Not started: consume refuses instead of pretending to write.
  EXPECT_FALSE(e->consume(::proflow::testing::batchOf(makeRequest("a", {makeProfile(1)}))).isOk());
}

TEST(FileExporter, StartFailsWhenThePathIsADirectory) {
  TempDir dir;
  Harness h;
  FileExporterConfig c;
  c.path = dir.path().string();
  c.format = "otlp_proto";
  Status s = h.make(c)->start(h.host);
  ASSERT_FALSE(s.isOk());
  EXPECT_THAT(s.message(), HasSubstr("cannot open for writing"));
  EXPECT_THAT(s.message(), HasSubstr("Is a directory"));
}

TEST(FileExporter, DiskFullIsARetryableFailure) {
  ASSERT_TRUE(std::filesystem::exists("/dev/full")) << "this test needs the /dev/full device";
  Harness h;
  FileExporterConfig c;
  c.path = "/dev/full";  // every write fails with ENOSPC
  c.format = "otlp_proto";
  auto e = h.make(c);
  ASSERT_TRUE(e->start(h.host).isOk());
  Status s = e->consume(::proflow::testing::batchOf(makeRequest("a", {makeProfile(2)})));
  EXPECT_EQ(s.code(), StatusCode::kUnavailable) << s.toString();
  EXPECT_TRUE(s.retryable());
  EXPECT_THAT(s.message(), HasSubstr("disk full"));
  EXPECT_EQ(h.metric("proflow_exporter_failed_batches_total"), 1);
  EXPECT_EQ(h.metric("proflow_exporter_sent_batches_total"), 0);
  EXPECT_EQ(h.metric("proflow_exporter_bytes_out_total"), 0);
  e->shutdown(Deadline::clock::now());
}

TEST(FileExporter, ConsumeAfterShutdownIsRefused) {
  TempDir dir;
  Harness h;
  FileExporterConfig c;
  c.path = dir.file("p.binpb");
  c.format = "otlp_proto";
  auto e = h.make(c);
  ASSERT_TRUE(e->start(h.host).isOk());
  e->shutdown(Deadline::clock::now());
  e->shutdown(Deadline::clock::now());  // idempotent
  Status s = e->consume(::proflow::testing::batchOf(makeRequest("a", {makeProfile(1)})));
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_EQ(readFile(c.path), "");
}

TEST(FileExporter, ConcurrentWritersNeverInterleaveRecords) {
  TempDir dir;
  Harness h;
  FileExporterConfig c;
  c.path = dir.file("p.binpb");
  c.format = "otlp_proto";
  auto e = h.make(c);
  ASSERT_TRUE(e->start(h.host).isOk());
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i)
        ASSERT_TRUE(e->consume(::proflow::testing::batchOf(makeRequest("t" + std::to_string(t), {makeProfile(20, i)}))).isOk());
    });
  for (auto& t : threads) t.join();
  e->shutdown(Deadline::clock::now());
  const std::vector<otlp::Request> got = testing::readOtlpProtoFile(c.path);
  EXPECT_EQ(got.size(), 100u);
}

// flush_interval 0: a writer whose fdatasync is slow does not hold the others out of the file; their
// records go in (whole, after its record) while it syncs, and every consume() returns once synced.
TEST(FileExporter, AWriterIsNotHeldUpByAnotherWritersSync) {
  TempDir dir;
  Harness h;
  FileExporterConfig c;
  c.path = dir.file("p.binpb");
  c.format = "otlp_proto";
  c.flush_interval = config::Duration{};
  HeldFirstSync sync;
  auto e = std::make_unique<FileExporter>(h.settings(), c, makeEncoder(c.format), sync.fn());
  ASSERT_TRUE(e->start(h.host).isOk());
  auto consume = [&](const std::string& service) {
    return std::async(std::launch::async, [&e, service] {
      return e->consume(::proflow::testing::batchOf(makeRequest(service, {makeProfile(3)})));
    });
  };
  auto first = consume("first");
  ASSERT_TRUE(sync.waitUntilHeld());
  auto second = consume("second");
  const bool written_meanwhile = ::proflow::testing::waitFor(
      [&] { return testing::readOtlpProtoFileSoFar(c.path).size() == 2; }, std::chrono::seconds(20));
  sync.release();
  EXPECT_TRUE(written_meanwhile) << "the second record waited for the first writer's fdatasync";
  EXPECT_TRUE(first.get().isOk());
  EXPECT_TRUE(second.get().isOk());
  e->shutdown(Deadline::clock::now());
  const std::vector<otlp::Request> got = testing::readOtlpProtoFile(c.path);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(testing::serviceName(got[0], 0), "first");
  EXPECT_EQ(testing::serviceName(got[1], 0), "second");
}

config::ConfigErrors validateYaml(const std::string& yaml) {
  return ::proflow::testing::checkComponentConfig<void>(*makeFileExporterFactory(), yaml, "exporters.file", nullptr, "test.yaml");
}

TEST(FileExporterConfig, ReportsEveryProblemWithItsLocation) {
  auto errors = validateYaml("format: csv\nrotation:\n  max_megabytes: 0\n  max_backupz: 3\n");
  const std::string text = errors.format();
  EXPECT_THAT(text, HasSubstr("path is required"));
  EXPECT_THAT(text, HasSubstr("unknown format 'csv'; valid formats: otlp_json, otlp_proto, pprof"));
  EXPECT_THAT(text, HasSubstr("test.yaml:1:"));
  EXPECT_THAT(text, HasSubstr("max_megabytes must be > 0"));
  EXPECT_THAT(text, HasSubstr("unknown key 'max_backupz'"));
  EXPECT_EQ(errors.size(), 4u) << text;
}

TEST(FileExporterConfig, AcceptsAFullExample) {
  auto errors = validateYaml(
      "path: ./data/profiles.binpb\nformat: otlp_proto\nrotation: {max_megabytes: 10, max_backups: 3}\n"
      "flush_interval: 2s\n");
  EXPECT_TRUE(errors.empty()) << errors.format();
}

}  // namespace
}  // namespace proflow::exporters::file
