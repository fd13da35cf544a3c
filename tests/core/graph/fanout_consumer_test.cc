#include <gtest/gtest.h>

#include <mutex>

#include "core/graph/fanout_consumer.h"
#include "tests/support/profile_builder.h"
#include "tests/support/flat_request.h"

namespace proflow {
namespace {

class Recorder final : public ProfilesConsumer {
 public:
  Recorder(bool mutates, Status answer = {}) : mutates_(mutates), answer_(std::move(answer)) {}
  Capabilities capabilities() const override { return {mutates_}; }
  Status consume(Batch b) override {
    got.push_back(b);
    return answer_;
  }
  std::vector<Batch> got;

 private:
  bool mutates_;
  Status answer_;
};

Batch someBatch() { return ::proflow::testing::batchOf(testing::makeRequest("svc", {testing::makeProfile(2)})); }

TEST(FanoutConsumer, ReadersShareMutatorsGetCopies) {
  auto r1 = std::make_shared<Recorder>(false), r2 = std::make_shared<Recorder>(false);
  auto m1 = std::make_shared<Recorder>(true);
  auto fan = graph::makeFanout({r1, m1, r2});
  Batch b = someBatch();
  ASSERT_TRUE(fan->consume(b).isOk());
  EXPECT_TRUE(r1->got[0].sharesStateWith(b));
  EXPECT_TRUE(r2->got[0].sharesStateWith(b));
  EXPECT_FALSE(m1->got[0].sharesStateWith(b));
}

TEST(FanoutConsumer, LastMutatorTakesTheOriginalWhenNobodyReads) {
  auto m1 = std::make_shared<Recorder>(true), m2 = std::make_shared<Recorder>(true);
  auto fan = graph::makeFanout({m1, m2});
  Batch b = someBatch();
  ASSERT_TRUE(fan->consume(b).isOk());
  EXPECT_FALSE(m1->got[0].sharesStateWith(b));
  EXPECT_TRUE(m2->got[0].sharesStateWith(b));
}

// Edits its batch, then keeps it (as a queue would).
class Editor final : public ProfilesConsumer {
 public:
  Capabilities capabilities() const override { return {true}; }
  Status consume(Batch b) override {
    b.mutableData().resources.clear();
    got.push_back(b);
    return {};
  }
  std::vector<Batch> got;
};

// What a reader sees, read when it is called and again after everyone was called.
class Reader final : public ProfilesConsumer {
 public:
  Status consume(Batch b) override {
    seen_then.push_back(::proflow::testing::requestOf(b).SerializeAsString());
    got.push_back(b);
    return {};
  }
  std::vector<std::string> seen_then;
  std::vector<Batch> got;
};

TEST(FanoutConsumer, AMutatingConsumerNeverChangesWhatAnotherOneSees) {
  const std::string original = ::proflow::testing::requestOf(someBatch()).SerializeAsString();
  auto before = std::make_shared<Reader>(), after = std::make_shared<Reader>();
  auto e1 = std::make_shared<Editor>(), e2 = std::make_shared<Editor>();
  auto fan = graph::makeFanout({before, e1, after, e2});
  Batch b = someBatch();
  ASSERT_TRUE(fan->consume(b).isOk());
  EXPECT_TRUE(e1->got[0].empty());
  EXPECT_TRUE(e2->got[0].empty());
  for (const auto* r : {before.get(), after.get()}) {
    EXPECT_EQ(r->seen_then[0], original);
    EXPECT_EQ(::proflow::testing::requestOf(r->got[0]).SerializeAsString(), original);  // still, after the editors ran
    EXPECT_EQ(r->got[0].counts().samples, 2u);
    EXPECT_EQ(r->got[0].data().resources.size(), 1u);
  }
  EXPECT_EQ(::proflow::testing::requestOf(b).SerializeAsString(), original);
}

TEST(FanoutConsumer, SingleConsumerIsNotWrapped) {
  auto r = std::make_shared<Recorder>(true);
  EXPECT_EQ(graph::makeFanout({r}), r);
}

TEST(FanoutConsumer, RetryableRefusalWinsOverPermanent) {
  auto bad = std::make_shared<Recorder>(false, Status::invalid("no"));
  auto full = std::make_shared<Recorder>(false, Status::exhausted("full"));
  auto ok = std::make_shared<Recorder>(false);
  auto fan = graph::makeFanout({bad, ok, full});
  Status s = fan->consume(someBatch());
  EXPECT_EQ(s.code(), StatusCode::kResourceExhausted);
  EXPECT_EQ(ok->got.size(), 1u);  // everyone still got it
  auto fan2 = graph::makeFanout({ok, bad});
  EXPECT_EQ(fan2->consume(someBatch()).code(), StatusCode::kInvalidArgument);
}

// Reads what it is handed and keeps nothing of it.
class Glance final : public ProfilesConsumer {
 public:
  Status consume(Batch b) override {
    profiles += b.counts().profiles;
    return {};
  }
  uint64_t profiles = 0;
};

// A read-only consumer whose downstream edits (a pipeline starting with a transform after one that
// reads): tells whether the edit could take the data it was handed without copying it.
class EditsDownstream final : public ProfilesConsumer {
 public:
  Status consume(Batch b) override {
    const flat::Batch* handed = &b.data();
    edited_in_place = &b.mutableData() == handed;
    return {};
  }
  bool edited_in_place = false;
};

TEST(FanoutConsumer, TheLastConsumerTakesTheBatchItselfSoItsEditsNeedNoCopy) {
  auto first = std::make_shared<Glance>();
  auto last = std::make_shared<EditsDownstream>();
  auto fan = graph::makeFanout({first, last});
  ASSERT_TRUE(fan->consume(someBatch()).isOk());
  EXPECT_EQ(first->profiles, 1u);
  EXPECT_TRUE(last->edited_in_place);
}

}  // namespace
}  // namespace proflow
