#include "processors/batch/shard_router.h"

#include <map>

#include "core/request_merger.h"
#include "core/stable_hash.h"

namespace proflow::processors::batch {

size_t shardOfResource(const otlp::Request& request, int resource_index, size_t shards) {
  if (shards <= 1) return 0;
  const auto& rp = request.resource_profiles(resource_index);
  const std::string identity = rp.schema_url() + '\n' + keyValuesIdentity(rp.resource().attributes(), request.dictionary());
  return static_cast<size_t>(stableHash(identity) % shards);
}

std::vector<ShardPart> splitByShard(Batch batch, size_t shards) {
  const otlp::Request& src = batch.request();
  std::map<size_t, std::vector<int>> by_shard;
  for (int r = 0; r < src.resource_profiles_size(); ++r) by_shard[shardOfResource(src, r, shards)].push_back(r);
  std::vector<ShardPart> parts;
  if (by_shard.size() <= 1) {
    parts.push_back({by_shard.empty() ? 0 : by_shard.begin()->first, std::move(batch)});
    return parts;
  }
  for (const auto& [shard, resources] : by_shard) {
    otlp::Request part;
    RequestMerger(&part).appendResources(src, resources);
    parts.push_back({shard, Batch(std::move(part))});
  }
  return parts;
}

}  // namespace proflow::processors::batch
