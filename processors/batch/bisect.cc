#include "processors/batch/bisect.h"

#include "core/flat/flat_merge.h"
#include "core/flat/flat_split.h"

namespace proflow::processors::batch {

bool refusedForData(const Status& s) {
  return s.code() == StatusCode::kInvalidArgument || s.code() == StatusCode::kPayloadTooLarge;
}

namespace {

// Keeps the halves only when both carry profiles (resources without any give empty halves).
std::vector<flat::Batch> bothHolding(std::vector<flat::Batch> parts) {
  std::erase_if(parts, [](const flat::Batch& h) { return h.empty(); });
  if (parts.size() < 2) parts.clear();
  return parts;
}

}  // namespace

std::vector<flat::Batch> halves(const flat::Batch& b) {
  const size_t resources = b.resources.size();
  if (resources > 1) {
    // By resource first: a refusal about a resource (a routing condition) is found in log2(resources) steps.
    std::vector<uint32_t> group(resources, 0);
    for (size_t r = resources / 2; r < resources; ++r) group[r] = 1;
    std::vector<flat::Batch> out = bothHolding(flat::splitByResource(b, group, 2));
    if (!out.empty()) return out;
  }
  const uint64_t profiles = b.counts().profiles;
  if (profiles < 2) return {};
  std::vector<flat::Batch> out(2);
  for (size_t half = 0; half < 2; ++half) {
    flat::Merger::Selection selection;
    selection.first_profile = half == 0 ? 0 : profiles / 2;
    selection.end_profile = half == 0 ? profiles / 2 : profiles;
    flat::Merger(&out[half]).append(b, selection);
  }
  return bothHolding(std::move(out));
}

}  // namespace proflow::processors::batch
