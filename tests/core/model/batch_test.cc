// Batch: a flat batch shared by its copies; private copies for mutating consumers, made only when
// they edit.
#include <gtest/gtest.h>

#include <optional>

#include "core/model/batch.h"
#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "tests/support/flat_request.h"
#include "tests/support/profile_builder.h"

namespace proflow {
namespace {

void addProfile(otlp::Request& r, int samples) {
  auto* p = r.add_resource_profiles()->add_scope_profiles()->add_profiles();
  for (int i = 0; i < samples; ++i) p->add_samples()->add_values(i);
}

Batch decodedBatch(const otlp::Request& r) {
  auto data = std::make_shared<flat::Batch>();
  EXPECT_TRUE(flat::decode(r.SerializeAsString(), data.get()).request.isOk());
  return Batch(std::shared_ptr<const flat::Batch>(std::move(data)));
}

TEST(Batch, TheFlatDataLivesWithItsLastCopy) {
  const otlp::Request want = testing::makeRequest("svc", {testing::makeProfile(1000)});
  std::optional<Batch> original = decodedBatch(want);
  Batch copy = *original;
  EXPECT_TRUE(copy.sharesStateWith(*original));
  original.reset();  // the data must survive in `copy`
  EXPECT_EQ(copy.counts().samples, 1000u);
  EXPECT_EQ(flat::encode(copy.data()), want.SerializeAsString());

  Batch deep = copy.deepCopy();  // its own state, sharing the flat data
  EXPECT_FALSE(deep.sharesStateWith(copy));
  EXPECT_EQ(deep.counts().samples, 1000u);
  EXPECT_EQ(&deep.data(), &copy.data());
}

flat::Batch decodedData(const otlp::Request& r) {
  flat::Batch data;
  EXPECT_TRUE(flat::decode(r.SerializeAsString(), &data).request.isOk());
  return data;
}

TEST(Batch, DataMovedInIsEditedInPlaceOnlyByItsOnlyHolder) {
  const otlp::Request want = testing::makeRequest("svc", {testing::makeProfile(4)});
  const std::string before = want.SerializeAsString();

  Batch alone(decodedData(want));
  const flat::Batch* moved_in = &alone.data();
  EXPECT_EQ(&alone.mutableData(), moved_in);  // nobody else sees it: no copy
  alone.mutableData().values[0] = 424242;
  EXPECT_EQ(testing::requestOf(alone).resource_profiles(0).scope_profiles(0).profiles(0).samples(0).values(0), 424242);

  Batch edited(decodedData(want));
  const Batch copy = edited;  // same state: the edit must not show in the copy
  edited.mutableData().values[0] = 424242;
  EXPECT_NE(&edited.data(), &copy.data());
  EXPECT_EQ(flat::encode(copy.data()), before);

  Batch shared_out(decodedData(want));
  const std::shared_ptr<const flat::Batch> held = shared_out.shared();  // a reader holds the data itself
  shared_out.mutableData().values[0] = 424242;
  EXPECT_NE(&shared_out.data(), held.get());
  EXPECT_EQ(flat::encode(*held), before);

  const Batch original(decodedData(want));
  Batch mine = original.deepCopy();  // own state, shared data
  mine.mutableData().values[0] = 424242;
  EXPECT_NE(&mine.data(), &original.data());
  EXPECT_EQ(flat::encode(original.data()), before);
}

TEST(Batch, EmptyByDefault) {
  Batch b;
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.encodedSize(), 0u);
  otlp::Request r;
  addProfile(r, 0);
  const Batch one = testing::batchOf(r);
  EXPECT_FALSE(one.empty());
  EXPECT_EQ(one.data().resources.size(), 1u);
}

TEST(Batch, CountsAndSizesComeFromTheFlatData) {
  const otlp::Request want = testing::makeRequest("svc", {testing::makeProfile(20, 1), testing::makeProfile(5, 2)});
  Batch b = decodedBatch(want);
  EXPECT_EQ(b.counts().resources, 1u);
  EXPECT_EQ(b.counts().profiles, 2u);
  EXPECT_EQ(b.counts().samples, 25u);
  EXPECT_EQ(b.encodedSize(), want.ByteSizeLong());
  EXPECT_GE(b.byteSize(), b.data().arena.size() + 25 * sizeof(int32_t));
}

TEST(Batch, APrivateCopySharesTheFlatDataUntilItIsEdited) {
  Batch b = decodedBatch(testing::makeRequest("svc", {testing::makeProfile(4)}));
  const std::string before = flat::encode(b.data());
  Batch mine = b.deepCopy();
  EXPECT_EQ(&mine.data(), &b.data());  // nothing copied yet
  mine.mutableData().values[0] = 424242;
  EXPECT_NE(&mine.data(), &b.data());
  EXPECT_EQ(flat::encode(b.data()), before);
  EXPECT_EQ(testing::requestOf(mine).resource_profiles(0).scope_profiles(0).profiles(0).samples(0).values(0), 424242);
  flat::Batch* edited = &mine.mutableData();
  EXPECT_EQ(&mine.mutableData(), edited);  // its own copy now: edited in place

  Batch other = b.deepCopy();
  other.mutableData().clear();
  EXPECT_TRUE(other.empty());
  EXPECT_EQ(b.counts().profiles, 1u);
  EXPECT_EQ(flat::encode(b.data()), before);
}

TEST(Batch, EditingASharedBatchLeavesTheCopiesMadeBeforeAsTheyWere) {
  Batch b = decodedBatch(testing::makeRequest("svc", {testing::makeProfile(4)}));
  Batch mine = b.deepCopy();
  mine.mutableData();  // its own copy
  const Batch seen = mine;
  mine.mutableData().values[0] = 424243;  // `seen` shares the state: copied again
  EXPECT_NE(&seen.data(), &mine.data());
  EXPECT_NE(seen.data().values[0], 424243);
  EXPECT_EQ(mine.data().values[0], 424243);
}

}  // namespace
}  // namespace proflow
