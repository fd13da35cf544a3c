#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "tests/exporters/file/test_util.h"
#include "tests/support/otlp_files.h"
#include "tests/support/profile_builder.h"
#include "tests/support/temp_dir.h"
#include "tests/support/flat_request.h"

namespace proflow::exporters::file {
namespace {

using ::proflow::testing::makeRequest;
using ::proflow::testing::readFile;
using ::proflow::testing::TempDir;

// A batch of roughly 300 KiB: one sample whose leaf function has a 150 KiB name (the builder also
// derives a 150 KiB file name from it).
otlp::Request bigRequest(int i) {
  testing::ProfileSpec p;
  p.samples.push_back({{std::string(150 * 1024, static_cast<char>('a' + i % 26)), "main"}, i});
  return makeRequest("svc-" + std::to_string(i), {p});
}

std::vector<otlp::Request> readAll(const std::vector<std::string>& files) {
  std::vector<otlp::Request> out;
  for (const auto& f : files)
    for (auto& r : testing::readOtlpProtoFile(f)) out.push_back(std::move(r));
  return out;
}

TEST(FileRotation, BackupNamesFollowTheCollectorConvention) {
  using namespace std::chrono;
  auto t = system_clock::time_point(milliseconds(1767366245123));  // 2026-01-02T15:04:05.123Z
  EXPECT_EQ(RotatingFile::backupName("data/profiles.jsonl", t), "data/profiles-2026-01-02T15-04-05.123.jsonl");
  EXPECT_EQ(RotatingFile::backupName("noext", t), "noext-2026-01-02T15-04-05.123");
}

TEST(FileRotation, KeepsEveryRecordInOrderAcrossRotatedFiles) {
  TempDir dir;
  Harness h;
  FileExporterConfig c;
  c.path = dir.file("profiles.binpb");
  c.format = "otlp_proto";
  c.rotation = RotationConfig{1, 0};  // 1 MiB, keep all backups
  auto e = h.make(c);
  ASSERT_TRUE(e->start(h.host).isOk());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(e->consume(::proflow::testing::batchOf(bigRequest(i))).isOk());
  e->shutdown(Deadline::clock::now());

  RotatingFile probe(c.path, {});
  auto backups = probe.backups();
  // 3 records of ~300 KiB fit in 1 MiB, so 10 records need 4 files: 3 rotated + the current one.
  ASSERT_EQ(backups.size(), 3u);
  const std::regex name(R"(profiles-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.binpb)");
  for (const auto& b : backups) {
    EXPECT_TRUE(std::regex_match(std::filesystem::path(b).filename().string(), name)) << b;
    EXPECT_LE(std::filesystem::file_size(b), 1u << 20) << b;
  }
  auto files = backups;
  files.push_back(c.path);
  auto got = readAll(files);
  ASSERT_EQ(got.size(), 10u);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(testing::serviceName(got[i], 0), "svc-" + std::to_string(i));
}

TEST(FileRotation, PrunesOldestBackupsBeyondMaxBackups) {
  TempDir dir;
  Harness h;
  FileExporterConfig c;
  c.path = dir.file("profiles.binpb");
  c.format = "otlp_proto";
  c.rotation = RotationConfig{1, 2};
  auto e = h.make(c);
  ASSERT_TRUE(e->start(h.host).isOk());
  for (int i = 0; i < 15; ++i) ASSERT_TRUE(e->consume(::proflow::testing::batchOf(bigRequest(i))).isOk());
  e->shutdown(Deadline::clock::now());

  RotatingFile probe(c.path, {});
  auto backups = probe.backups();
  ASSERT_EQ(backups.size(), 2u);
  auto files = backups;
  files.push_back(c.path);
  auto got = readAll(files);
  // The newest records survive, in order, ending with the last one written.
  ASSERT_FALSE(got.empty());
  EXPECT_EQ(testing::serviceName(got.back(), 0), "svc-14");
  for (size_t i = 1; i < got.size(); ++i) {
    EXPECT_EQ(testing::serviceName(got[i], 0),
              "svc-" + std::to_string(15 - static_cast<int>(got.size()) + static_cast<int>(i)));
  }
  // Nothing else (e.g. stray temp files) was left in the directory.
  size_t entries = 0;
  for ([[maybe_unused]] const auto& d : std::filesystem::directory_iterator(dir.path())) ++entries;
  EXPECT_EQ(entries, 3u);
}

}  // namespace
}  // namespace proflow::exporters::file
