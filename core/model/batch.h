// The unit of data flowing through a pipeline: one OTLP profiles request (resources -> scopes ->
// profiles, plus the one dictionary they share), held as a flat batch (core/flat/README.md).
//
// Copies of a Batch share one state: the flat data, read-only. A component that declared
// `mutatesData` receives a batch whose state it owns alone (deepCopy(): it shares the immutable flat
// data, and whatever it edits is its own).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/flat/flat_batch.h"
#include "core/model/client_metadata.h"

namespace proflow {

struct BatchCounts {
  uint64_t resources = 0;
  uint64_t profiles = 0;
  uint64_t samples = 0;
};

class Batch {
 public:
  Batch();  // empty
  explicit Batch(std::shared_ptr<const flat::Batch> data);
  explicit Batch(flat::Batch&& data);
  const flat::Batch& data() const;
  std::shared_ptr<const flat::Batch> shared() const;
  // The flat data for a component that edits it: copied first unless this batch holds it alone.
  flat::Batch& mutableData();

  // A batch with its own state for a mutating consumer. The immutable flat data is shared (its
  // copy is made only if the consumer edits it as flat data).
  Batch deepCopy() const;
  // True when both are copies of one Batch (same state).
  bool sharesStateWith(const Batch& other) const { return state_ == other.state_; }

  // The request metadata the receiver kept (client_metadata.h); null when it kept none. Carried by
  // copies; a component that makes a new Batch from this one's data passes it on (withMetadataOf).
  const ClientMetadataPtr& metadata() const { return metadata_; }
  void setMetadata(ClientMetadataPtr metadata) { metadata_ = std::move(metadata); }
  Batch& withMetadataOf(const Batch& other) {
    metadata_ = other.metadata_;
    return *this;
  }

  BatchCounts counts() const;
  bool empty() const;  // no profile at all
  // Bytes the flat data holds in memory (exact: every column's capacity and the arena): what
  // memory limits charge.
  size_t byteSize() const { return data().memoryBytes(); }
  // Bytes of the batch as an OTLP request on the wire (exact).
  size_t encodedSize() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
  ClientMetadataPtr metadata_;
};

}  // namespace proflow
