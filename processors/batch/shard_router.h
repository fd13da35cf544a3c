// Splits an incoming batch by shard: every resource goes to the shard its identity (schema URL and
// attributes) hashes to, so one resource's data always merges in one shard (its order is kept) while
// different resources merge on different threads at once.
#pragma once

#include <cstddef>
#include <vector>

#include "core/model/batch.h"

namespace proflow::processors::batch {

struct ShardPart {
  size_t shard = 0;
  Batch batch;
};

// The shard of resource `resource_index` of `batch`, in `shards` shards.
size_t shardOfResource(const flat::Batch& batch, size_t resource_index, size_t shards);

// One part per shard that has resources of `batch`. A batch whose resources all fall in one shard
// (the common case: one resource per request) is passed on as is, without a copy.
std::vector<ShardPart> splitByShard(Batch batch, size_t shards);

}  // namespace proflow::processors::batch
