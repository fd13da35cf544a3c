#include "core/flat/flat_split.h"

#include "core/flat/flat_merge.h"

namespace proflow::flat {

std::vector<Batch> splitByProfiles(Batch&& src, uint64_t max_profiles) {
  std::vector<Batch> out;
  const uint64_t total = src.counts().profiles;
  if (max_profiles == 0 || total <= max_profiles) {
    out.push_back(std::move(src));
    return out;
  }
  out.reserve(static_cast<size_t>((total + max_profiles - 1) / max_profiles));
  for (uint64_t first = 0; first < total; first += max_profiles) {
    Batch& part = out.emplace_back();
    Merger::Selection selection;
    selection.first_profile = first;
    selection.end_profile = first + max_profiles;
    Merger(&part).append(src, selection);
  }
  return out;
}

std::vector<Batch> splitByResource(const Batch& src, const std::vector<uint32_t>& group_of_resource, uint32_t groups) {
  std::vector<Batch> out(groups);
  for (uint32_t g = 0; g < groups; ++g) {
    Merger::Selection selection;
    selection.resources.resize(src.resources.size());
    bool any = false;
    for (size_t r = 0; r < src.resources.size() && r < group_of_resource.size(); ++r) {
      const bool mine = group_of_resource[r] == g;
      selection.resources[r] = mine;
      any = any || mine;
    }
    if (any) Merger(&out[g]).append(src, selection);
  }
  return out;
}

void keepRows(Batch& b, const std::vector<bool>& keep) {
  const SampleColumns& in = b.samples;
  SampleColumns out;
  for (Profile& p : b.profiles) {
    const uint32_t begin = static_cast<uint32_t>(out.size());
    for (uint32_t row = p.samples.begin; row < p.samples.end(); ++row) {
      if (row < keep.size() && !keep[row]) continue;
      out.stack_index.push_back(in.stack_index[row]);
      out.link_index.push_back(in.link_index[row]);
      out.attributes.push_back(in.attributes[row]);
      out.values.push_back(in.values[row]);
      out.timestamps.push_back(in.timestamps[row]);
    }
    p.samples = Range{begin, static_cast<uint32_t>(out.size()) - begin};
  }
  b.samples = std::move(out);
}

}  // namespace proflow::flat
