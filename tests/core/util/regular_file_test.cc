// readRegularFile reads a regular file whole, within its limit, and refuses at once anything else
// put at the path: a FIFO (whose blocking open would wait for a writer), a directory, a symbolic
// link when links are not followed.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "core/util/regular_file.h"
#include "tests/support/temp_dir.h"

namespace proflow {
namespace {

TEST(RegularFile, ReadsARegularFileWhole) {
  testing::TempDir dir;
  const std::string path = dir.write("f", "token\n");
  std::string out;
  ASSERT_TRUE(readRegularFile(path, {.max_bytes = 6}, &out).isOk());
  EXPECT_EQ(out, "token\n");
}

TEST(RegularFile, RefusesAFileLargerThanTheLimit) {
  testing::TempDir dir;
  const std::string path = dir.write("f", "1234567");
  std::string out;
  const Status s = readRegularFile(path, {.max_bytes = 6}, &out);
  EXPECT_EQ(s.code(), StatusCode::kPayloadTooLarge) << s.message();
  EXPECT_TRUE(out.empty());
}

TEST(RegularFile, RefusesAFifoWithoutWaitingForAWriter) {
  testing::TempDir dir;
  const std::string path = dir.file("fifo");
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  std::string out;
  const Status s = readRegularFile(path, {.max_bytes = 1024}, &out);  // returns: nobody ever writes
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.message();
  EXPECT_NE(s.message().find("not a regular file"), std::string::npos) << s.message();
}

TEST(RegularFile, RefusesADirectoryAndAMissingFile) {
  testing::TempDir dir;
  std::string out;
  EXPECT_EQ(readRegularFile(dir.path().string(), {.max_bytes = 1024}, &out).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(readRegularFile(dir.file("missing"), {.max_bytes = 1024}, &out).code(), StatusCode::kUnavailable);
}

TEST(RegularFile, FollowsASymbolicLinkOnlyWhenAsked) {
  testing::TempDir dir;
  const std::string target = dir.write("target", "secret");
  std::filesystem::create_symlink(target, dir.file("link"));
  std::string out;
  ASSERT_TRUE(readRegularFile(dir.file("link"), {.max_bytes = 1024}, &out).isOk());
  EXPECT_EQ(out, "secret");
  const Status s = readRegularFile(dir.file("link"), {.max_bytes = 1024, .follow_symlinks = false}, &out);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.message();
  EXPECT_NE(s.message().find("symbolic link"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace proflow
