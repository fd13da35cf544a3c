// The unit of data flowing through a pipeline: one OTLP profiles request (resources -> scopes ->
// profiles, plus the one dictionary they share), held as a flat batch (core/flat/README.md).
//
// Copies of a Batch share one state: the flat data, read-only, and the protobuf request that
// components not yet moved to the flat model read, materialized from it lazily, once, whichever
// thread asks first. A component that declared `mutatesData` receives a batch whose state it owns
// alone (deepCopy(): it shares the immutable flat data, and whatever it edits is its own).
// A batch made from a protobuf request (a cold edge or a test) converts it to flat data once, when
// first read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/flat/flat_batch.h"
#include "core/model/otlp_types.h"

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
  // A protobuf request (from a component or a cold edge): the flat data is converted from it once,
  // when first read.
  explicit Batch(std::unique_ptr<otlp::Request> request);
  explicit Batch(otlp::Request&& request);

  // The flat data; converted once from the protobuf request first when the batch was made from one.
  const flat::Batch& data() const;
  std::shared_ptr<const flat::Batch> shared() const;
  // The flat data for a component that edits it: copied first unless this batch holds it alone.
  // The edits are this batch's content (a protobuf request materialized before is dropped).
  flat::Batch& mutableData();

  // The protobuf request, materialized from the flat data on first use (thread-safe, once).
  const otlp::Request& request() const;
  const otlp::Dictionary& dictionary() const { return request().dictionary(); }

  // A batch with its own state for a mutating consumer. The immutable flat data is shared (its
  // copy is made only if the consumer edits it as flat data).
  Batch deepCopy() const;
  // True when both are copies of one Batch (same state).
  bool sharesRequestWith(const Batch& other) const { return state_ == other.state_; }
  // True when a protobuf request has been materialized or set (tests and benchmarks).
  bool hasRequest() const;

  BatchCounts counts() const;
  bool empty() const;  // no profile at all
  // Bytes the flat data holds in memory (exact: every column's capacity and the arena): what
  // memory limits charge.
  size_t byteSize() const { return data().memoryBytes(); }
  // Bytes of the batch as an OTLP request on the wire (exact).
  size_t encodedSize() const;

 private:
  struct State;
  void materializeRequest() const;
  std::shared_ptr<State> state_;
};

BatchCounts countRequest(const otlp::Request& request);

}  // namespace proflow
