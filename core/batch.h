// The unit of data flowing through a pipeline: one OTLP profiles request (resources -> scopes ->
// profiles, plus the one dictionary they share).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/otlp_types.h"

namespace proflow {

struct BatchCounts {
  uint64_t resources = 0;
  uint64_t profiles = 0;
  uint64_t samples = 0;
};

// Copies of a Batch share one request. A component that declared `mutatesData` receives a batch it
// owns alone (the fan-out deep-copies for it); every other component must treat the request as
// read-only.
class Batch {
 public:
  Batch();
  explicit Batch(std::unique_ptr<otlp::Request> request);
  explicit Batch(otlp::Request&& request);
  // An empty request on its own protobuf arena, for receivers that build large requests: messages
  // come from arena blocks and are freed at once with the last copy of the batch (freeing a request
  // of millions of small heap messages cost ~15% of a pprof round trip). Moving the request into a
  // heap message later copies it, so only the builder should fill it.
  static Batch withArena();

  otlp::Request& request() { return *request_; }
  const otlp::Request& request() const { return *request_; }
  const otlp::Dictionary& dictionary() const { return request_->dictionary(); }

  Batch deepCopy() const;
  bool sharesRequestWith(const Batch& other) const { return request_ == other.request_; }

  BatchCounts counts() const;
  bool empty() const;  // no profile at all
  size_t byteSize() const { return request_->ByteSizeLong(); }

 private:
  std::shared_ptr<otlp::Request> request_;
};

BatchCounts countRequest(const otlp::Request& request);

}  // namespace proflow
