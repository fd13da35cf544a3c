// What the receivers get from convertToFlat on the JDK's recordings (every event type, rotated and
// concatenated chunks): a batch the OTLP receivers' validator accepts whole and that survives an
// encode/decode round trip unchanged; companion profiles (bytes, delay) share their primary's
// per-event timestamps; appending a second recording leaves the first one's profiles as they were.
// The content itself is compared with the JDK's own decoding in jdk_compare_test.cc (through
// convertToOtlp, the request view of the same conversion).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "core/formats/jfr/flat_converter.h"
#include "tests/core/formats/jfr/recordings.h"

namespace proflow::jfr {
namespace {

const flat::Profile* findProfile(const flat::Batch& b, std::string_view type, std::string_view period) {
  for (const flat::Profile& p : b.profiles)
    if (b.string(p.sample_type.type_strindex) == type && b.string(p.period_type.type_strindex) == period) return &p;
  return nullptr;
}

TEST(JfrFlatConverterTest, RecordingsConvertToBatchesTheValidatorAcceptsWhole) {
  const std::string dir = testing::jfrRecordingsDir();
  ASSERT_FALSE(dir.empty()) << "could not generate JFR recordings with the JDK";
  for (const char* name : {"default", "profile", "contention", "two_chunks", "rotated"}) {
    SCOPED_TRACE(name);
    const std::vector<uint8_t> jfr = testing::readBytes(dir + "/" + name + ".jfr");
    flat::Batch batch;
    const ConvertResult r = convertToFlat(jfr, {}, &batch);
    ASSERT_TRUE(r.ok) << r.error.toString();
    ASSERT_GT(batch.counts().samples, 0u);
    const std::string wire = flat::encode(batch);
    flat::Batch decoded;
    const flat::DecodeResult d = flat::decode(wire, &decoded);
    ASSERT_TRUE(d.request.isOk()) << d.request.toString();
    EXPECT_EQ(d.rejected_profiles, 0);
    EXPECT_EQ(flat::encode(decoded), wire);
    uint64_t stamps = 0;
    for (const flat::Profile& p : batch.profiles) {
      if (batch.string(p.period_type.type_strindex) == "mutex" || batch.string(p.sample_type.type_strindex) == "delay")
        continue;
      for (uint32_t row = p.samples.begin; row < p.samples.end(); ++row) {
        EXPECT_EQ(batch.samples.values[row].size, batch.samples.timestamps[row].size);  // a value per event
        stamps += batch.samples.timestamps[row].size;
      }
    }
    EXPECT_GE(stamps, r.events);  // every event kept its timestamp (companions repeat theirs)
  }
}

TEST(JfrFlatConverterTest, CompanionProfilesShareTheirPrimarysTimestamps) {
  const std::string dir = testing::jfrRecordingsDir();
  ASSERT_FALSE(dir.empty());
  flat::Batch batch;
  ASSERT_TRUE(convertToFlat(testing::readBytes(dir + "/contention.jfr"), {}, &batch).ok);
  for (auto [primary, companion, period] : {std::tuple{"alloc_in_new_tlab_objects", "alloc_in_new_tlab_bytes", "space"},
                                            std::tuple{"contentions", "delay", "mutex"}}) {
    SCOPED_TRACE(companion);
    const flat::Profile* a = findProfile(batch, primary, period);
    const flat::Profile* b = findProfile(batch, companion, period);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    ASSERT_EQ(a->samples.size, b->samples.size);
    for (uint32_t i = 0; i < a->samples.size; ++i) {
      const uint32_t ra = a->samples.begin + i, rb = b->samples.begin + i;
      EXPECT_EQ(batch.samples.timestamps[ra].begin, batch.samples.timestamps[rb].begin);
      EXPECT_EQ(batch.samples.timestamps[ra].size, batch.samples.timestamps[rb].size);
      EXPECT_EQ(batch.samples.values[rb].size, batch.samples.timestamps[rb].size);
      EXPECT_EQ(batch.samples.stack_index[ra], batch.samples.stack_index[rb]);
    }
  }
}

TEST(JfrFlatConverterTest, AppendingARecordingLeavesTheFirstOnesProfilesAsTheyWere) {
  const std::string dir = testing::jfrRecordingsDir();
  ASSERT_FALSE(dir.empty());
  flat::Batch alone, both;
  ASSERT_TRUE(convertToFlat(testing::readBytes(dir + "/profile.jfr"), {}, &alone).ok);
  ASSERT_TRUE(convertToFlat(testing::readBytes(dir + "/profile.jfr"), {}, &both).ok);
  ASSERT_TRUE(convertToFlat(testing::readBytes(dir + "/contention.jfr"), {}, &both).ok);
  ASSERT_EQ(both.resources.size(), 2u);
  ASSERT_GT(both.profiles.size(), alone.profiles.size());
  flat::Batch first = both;  // the first resource alone, with the shared dictionary
  first.resources.resize(1);
  first.scopes.resize(1);
  first.profiles.resize(alone.profiles.size());
  // The first recording's profiles, read through the shared dictionary, are what it converted to alone.
  for (size_t p = 0; p < alone.profiles.size(); ++p) {
    const flat::Profile& x = alone.profiles[p];
    const flat::Profile& y = first.profiles[p];
    EXPECT_EQ(alone.string(x.sample_type.type_strindex), first.string(y.sample_type.type_strindex));
    ASSERT_EQ(x.samples.size, y.samples.size);
    for (uint32_t i = 0; i < x.samples.size; ++i) {
      const auto vx = flat::Batch::slice(alone.values, alone.samples.values[x.samples.begin + i]);
      const auto vy = flat::Batch::slice(first.values, first.samples.values[y.samples.begin + i]);
      EXPECT_TRUE(std::equal(vx.begin(), vx.end(), vy.begin(), vy.end()));
    }
  }
}

}  // namespace
}  // namespace proflow::jfr
