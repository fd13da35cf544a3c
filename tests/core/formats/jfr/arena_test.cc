// Conversion into a request on a protobuf arena, as the daemon's receivers build their batches.
#include <gtest/gtest.h>

#include <google/protobuf/arena.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tests/support/jfr_request.h"
#include "tests/core/formats/jfr/recordings.h"

namespace proflow::jfr {
namespace {

// The profiles are created on the heap and handed to the request (owned by its arena): the request
// serializes to the same bytes as one on the heap, and the arena frees it all (ASan checks).
TEST(JfrArenaConversionTest, ArenaAndHeapRequestsAreIdentical) {
  std::string dir = testing::jfrRecordingsDir();
  ASSERT_FALSE(dir.empty()) << "could not generate JFR recordings with the JDK";
  for (const char* name : {"contention", "two_chunks"}) {
    std::vector<uint8_t> in = testing::readBytes(dir + "/" + name + ".jfr");
    ASSERT_FALSE(in.empty()) << name;
    otlp::Request heap;
    ASSERT_TRUE(convertToOtlp(in, {}, &heap).ok);
    google::protobuf::Arena arena;
    auto* on_arena = google::protobuf::Arena::CreateMessage<otlp::Request>(&arena);
    ASSERT_TRUE(convertToOtlp(in, {}, on_arena).ok);
    EXPECT_EQ(on_arena->SerializeAsString(), heap.SerializeAsString()) << name;
  }
}

}  // namespace
}  // namespace proflow::jfr
