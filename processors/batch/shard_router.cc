#include "processors/batch/shard_router.h"

#include <algorithm>

#include "core/flat/flat_merge.h"
#include "core/flat/flat_split.h"
#include "core/util/stable_hash.h"

namespace proflow::processors::batch {

size_t shardOfResource(const flat::Batch& batch, size_t resource_index, size_t shards) {
  if (shards <= 1) return 0;
  return static_cast<size_t>(stableHash(flat::resourceIdentity(batch, batch.resources[resource_index])) % shards);
}

std::vector<ShardPart> splitByShard(Batch batch, size_t shards) {
  const flat::Batch& src = batch.data();
  std::vector<uint32_t> shard_of(src.resources.size());
  std::vector<bool> used(std::max<size_t>(shards, 1));
  size_t distinct = 0;
  for (size_t r = 0; r < src.resources.size(); ++r) {
    shard_of[r] = static_cast<uint32_t>(shardOfResource(src, r, shards));
    if (!used[shard_of[r]]) ++distinct;
    used[shard_of[r]] = true;
  }
  std::vector<ShardPart> parts;
  if (distinct <= 1) {
    parts.push_back({shard_of.empty() ? 0 : shard_of[0], std::move(batch)});
    return parts;
  }
  std::vector<flat::Batch> split = flat::splitByResource(src, shard_of, static_cast<uint32_t>(used.size()));
  for (size_t shard = 0; shard < split.size(); ++shard)
    if (used[shard]) parts.push_back({shard, Batch(std::move(split[shard])).withMetadataOf(batch)});
  return parts;
}

}  // namespace proflow::processors::batch
