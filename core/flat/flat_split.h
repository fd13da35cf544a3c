// Cutting a flat batch into smaller ones, each with its own dictionary holding only what its
// profiles reference (through Merger, so the parts are what RequestMerger-based cuts gave).
#pragma once

#include <cstdint>
#include <vector>

#include "core/flat/flat_batch.h"

namespace proflow::flat {

// Parts of at most `max_profiles` profiles (0 = no limit), in resource -> scope -> profile order.
// Resources and scopes are repeated in every part that has profiles of them; those without any
// profile are dropped. A batch within the limit is returned as is.
std::vector<Batch> splitByProfiles(Batch&& src, uint64_t max_profiles);

// One batch per group: `group_of_resource[r]` is the group of resource r, in [0, groups). Groups
// without resources give empty batches.
std::vector<Batch> splitByResource(const Batch& src, const std::vector<uint32_t>& group_of_resource, uint32_t groups);

// Keeps the sample rows `keep` selects (a row past its end is kept), in place: the sample columns
// are rebuilt profile by profile and each profile's range follows. Values and timestamps stay
// where they are (a dictionary compaction through Merger drops what no row uses any more).
void keepRows(Batch& b, const std::vector<bool>& keep);

}  // namespace proflow::flat
