// Batch: a flat batch shared by its copies; the protobuf request materialized lazily, once; a batch
// made from a request converted to flat data once; private copies for mutating consumers.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <optional>

#include "core/model/batch.h"
#include "core/flat/flat_decode.h"
#include "core/flat/flat_encode.h"
#include "tests/support/profile_builder.h"

namespace proflow {
namespace {

using google::protobuf::util::MessageDifferencer;

void addProfile(otlp::Request& r, int samples) {
  auto* p = r.add_resource_profiles()->add_scope_profiles()->add_profiles();
  for (int i = 0; i < samples; ++i) p->add_samples()->add_values(i);
}

Batch decodedBatch(const otlp::Request& r) {
  auto data = std::make_shared<flat::Batch>();
  EXPECT_TRUE(flat::decode(r.SerializeAsString(), data.get()).request.isOk());
  return Batch(std::shared_ptr<const flat::Batch>(std::move(data)));
}

TEST(Batch, TheMaterializedRequestLivesWithItsLastCopy) {
  const otlp::Request want = testing::makeRequest("svc", {testing::makeProfile(1000)});
  std::optional<Batch> original = decodedBatch(want);
  EXPECT_NE(original->request().GetArena(), nullptr);  // built on an arena, freed at once
  Batch copy = *original;
  EXPECT_TRUE(copy.sharesRequestWith(*original));
  original.reset();  // the arena must survive in `copy`
  EXPECT_EQ(copy.counts().samples, 1000u);
  EXPECT_TRUE(MessageDifferencer::Equals(copy.request(), want));

  Batch deep = copy.deepCopy();  // its own state, sharing the flat data
  EXPECT_FALSE(deep.sharesRequestWith(copy));
  EXPECT_FALSE(deep.hasRequest());
  EXPECT_EQ(deep.counts().samples, 1000u);
  EXPECT_EQ(&deep.data(), &copy.data());
}

TEST(Batch, EmptyByDefault) {
  Batch b;
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(b.encodedSize(), 0u);
  otlp::Request r;
  addProfile(r, 0);
  const Batch one(std::move(r));
  EXPECT_FALSE(one.empty());
  EXPECT_EQ(one.data().resources.size(), 1u);
}

TEST(Batch, RequestIsMaterializedFromTheFlatDataOnlyWhenAsked) {
  const otlp::Request want = testing::makeRequest("svc", {testing::makeProfile(20, 1), testing::makeProfile(5, 2)});
  Batch b = decodedBatch(want);
  EXPECT_FALSE(b.hasRequest());
  EXPECT_EQ(b.counts().profiles, 2u);  // from the columns
  EXPECT_EQ(b.counts().samples, 25u);
  EXPECT_EQ(b.encodedSize(), want.ByteSizeLong());
  EXPECT_GE(b.byteSize(), b.data().arena.size() + 25 * sizeof(int32_t));
  EXPECT_FALSE(b.hasRequest());
  EXPECT_TRUE(MessageDifferencer::Equals(b.request(), want));
  EXPECT_TRUE(b.hasRequest());
  EXPECT_EQ(&b.request(), &b.request());  // once
}

TEST(Batch, ARequestIsConvertedToFlatDataOnce) {
  const otlp::Request want = testing::makeRequest("svc", {testing::makeProfile(3), testing::makeProfile(2)});
  const Batch b{otlp::Request(want)};
  Batch same = b;  // a copy shares the state
  EXPECT_EQ(b.counts().profiles, 2u);  // counted on the request, before any conversion
  EXPECT_EQ(&b.data(), &same.data());  // converted once
  EXPECT_EQ(b.data().profiles.size(), 2u);
  EXPECT_EQ(flat::encode(b.data()), want.SerializeAsString());
}

TEST(Batch, APrivateCopySharesTheFlatDataUntilItIsEdited) {
  Batch b = decodedBatch(testing::makeRequest("svc", {testing::makeProfile(4)}));
  const std::string before = flat::encode(b.data());
  Batch mine = b.deepCopy();
  EXPECT_EQ(&mine.data(), &b.data());  // nothing copied yet
  mine.mutableData().values[0] = 424242;
  EXPECT_NE(&mine.data(), &b.data());
  EXPECT_EQ(flat::encode(b.data()), before);
  EXPECT_EQ(mine.request().resource_profiles(0).scope_profiles(0).profiles(0).samples(0).values(0), 424242);

  Batch other = b.deepCopy();
  other.mutableData().clear();
  EXPECT_TRUE(other.empty());
  EXPECT_EQ(b.counts().profiles, 1u);
  EXPECT_EQ(flat::encode(b.data()), before);
  EXPECT_FALSE(b.hasRequest());  // the copy's request was its own
}

}  // namespace
}  // namespace proflow
