// Whether a consumer's "accepted" means "in persistent storage": an exporter with a persistent
// sending queue says so, and the graph's edges (fan-out, counters) pass the answer through. A
// processor that holds data before passing it on (batch) asks its next consumer, and when it is
// durable waits for it before acknowledging, so "acknowledged" keeps meaning "survives a crash".
#pragma once

#include "core/component/consumer.h"

namespace proflow {

class DurableAcceptance {
 public:
  virtual ~DurableAcceptance() = default;
  // True when a batch this consumer accepted is in persistent storage.
  virtual bool acceptsDurably() const = 0;
};

// False for consumers that do not say (they hold data in memory or deliver it directly).
inline bool acceptsDurably(const ProfilesConsumer& consumer) {
  const auto* d = dynamic_cast<const DurableAcceptance*>(&consumer);
  return d != nullptr && d->acceptsDurably();
}

}  // namespace proflow
