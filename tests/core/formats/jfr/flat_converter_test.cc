// JFR -> flat::Batch means what JFR -> otlp::Request means: for the JDK's recordings (every event
// type, several chunks, inlined frames) and async-profiler style chunks (native/kernel frames,
// context labels, wall-clock values that change midway, spans and links), flat::toRequest of
// convertToFlat equals convertToOtlp field by field, dictionary order included, with and without the
// original payload, and the OTLP wire bytes are the same.
#include <gtest/gtest.h>
#include <google/protobuf/util/message_differencer.h>

#include <string>
#include <vector>

#include "core/flat/flat_convert.h"
#include "core/flat/flat_encode.h"
#include "core/formats/jfr/flat_converter.h"
#include "core/formats/jfr/otlp_converter.h"
#include "tests/core/formats/jfr/flat_oracle.h"
#include "tests/core/formats/jfr/recordings.h"

namespace proflow::jfr {
namespace {

TEST(JfrFlatConverterTest, JdkRecordingsConvertAsTheRequestPathDoes) {
  const std::string dir = testing::jfrRecordingsDir();
  ASSERT_FALSE(dir.empty()) << "could not generate JFR recordings with the JDK";
  for (const char* name : {"default", "profile", "contention", "two_chunks", "rotated"}) {
    SCOPED_TRACE(name);
    const std::vector<uint8_t> jfr = testing::readBytes(dir + "/" + name + ".jfr");
    ASSERT_FALSE(jfr.empty());
    expectFlatEqualsRequest(jfr, {});
    ConvertOptions payload;
    payload.keep_original_payload = true;
    payload.cpu_period_nanos = 7'000'000;
    expectFlatEqualsRequest(jfr, payload);
  }
}

TEST(JfrFlatConverterTest, AppendsToABatchThatAlreadyHoldsProfiles) {
  const std::string dir = testing::jfrRecordingsDir();
  ASSERT_FALSE(dir.empty());
  const std::vector<uint8_t> a = testing::readBytes(dir + "/profile.jfr");
  const std::vector<uint8_t> b = testing::readBytes(dir + "/contention.jfr");
  otlp::Request want;
  ASSERT_TRUE(convertToOtlp(a, {}, &want).ok);
  ASSERT_TRUE(convertToOtlp(b, {}, &want).ok);
  flat::Batch batch;
  ASSERT_TRUE(convertToFlat(a, {}, &batch).ok);
  ASSERT_TRUE(convertToFlat(b, {}, &batch).ok);
  otlp::Request got;
  ASSERT_TRUE(flat::toRequest(batch, &got).isOk());
  EXPECT_EQ(requestDifferences(want, got), "");
}

}  // namespace
}  // namespace proflow::jfr
