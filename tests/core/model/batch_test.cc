// Batch: copies share one request; an arena-backed request lives as long as its last copy.
#include <gtest/gtest.h>

#include <optional>

#include "core/batch.h"

namespace proflow {
namespace {

void addProfile(otlp::Request& r, int samples) {
  auto* p = r.add_resource_profiles()->add_scope_profiles()->add_profiles();
  for (int i = 0; i < samples; ++i) p->add_samples()->add_values(i);
}

TEST(Batch, ArenaRequestLivesWithItsLastCopy) {
  std::optional<Batch> original = Batch::withArena();
  ASSERT_NE(original->request().GetArena(), nullptr);
  addProfile(original->request(), 1000);
  Batch copy = *original;
  EXPECT_TRUE(copy.sharesRequestWith(*original));
  original.reset();  // the arena must survive in `copy`
  EXPECT_EQ(copy.counts().samples, 1000u);
  EXPECT_EQ(copy.request().resource_profiles(0).scope_profiles(0).profiles(0).samples(999).values(0), 999);

  Batch deep = copy.deepCopy();  // an owned heap copy, independent of the arena
  EXPECT_EQ(deep.request().GetArena(), nullptr);
  EXPECT_FALSE(deep.sharesRequestWith(copy));
  EXPECT_EQ(deep.counts().samples, 1000u);
}

TEST(Batch, HeapRequestByDefault) {
  Batch b;
  EXPECT_EQ(b.request().GetArena(), nullptr);
  EXPECT_TRUE(b.empty());
  addProfile(b.request(), 0);
  EXPECT_FALSE(b.empty());
}

}  // namespace
}  // namespace proflow
