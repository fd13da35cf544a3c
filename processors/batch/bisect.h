// Finding the part of a merged request that a downstream refuses. A request merges many callers'
// batches, already acknowledged to their clients; when the downstream refuses it for its data (a
// value it cannot take, a condition failing on one resource), only the data that caused it may be
// lost. The request is cut in two and each half sent on its own, again and again, until what is
// refused is a single profile: that profile is dropped and counted, the rest gets through.
#pragma once

#include <vector>

#include "core/flat/flat_batch.h"
#include "core/util/status.h"

namespace proflow::processors::batch {

// True when a permanent refusal may be caused by part of the data, so a part of the request may
// pass where the whole did not. Refusals that say nothing about the data (authentication, an
// unimplemented call) are not: cutting would only send the downstream more calls it refuses.
bool refusedForData(const Status& s);

// Two halves of `b`, each with the dictionary entries its profiles use: its resources in two groups
// when it holds several, else its profiles in two ranges. Empty when `b` holds a single profile.
std::vector<flat::Batch> halves(const flat::Batch& b);

}  // namespace proflow::processors::batch
