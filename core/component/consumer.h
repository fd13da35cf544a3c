// The one data interface between components: hand a batch downstream and learn whether it was taken.
#pragma once

#include <memory>

#include "core/model/batch.h"
#include "core/util/status.h"

namespace proflow {

struct Capabilities {
  // The consumer edits the batch in place. Fan-out gives such a consumer its own deep copy, so
  // read-only consumers can share one request without copying.
  bool mutates_data = false;
};

class ProfilesConsumer {
 public:
  virtual ~ProfilesConsumer() = default;
  virtual Capabilities capabilities() const { return {}; }
  // Returns when the batch is accepted (delivered downstream, or queued by an exporter) or refused.
  // A refused batch stays the caller's: receivers pass the refusal to their client (retryable codes
  // become RESOURCE_EXHAUSTED / 429), so nothing is accepted and then silently lost.
  virtual Status consume(Batch batch) = 0;
};

using ConsumerPtr = std::shared_ptr<ProfilesConsumer>;

}  // namespace proflow
