// The protobuf-form merge that the flat merge (core/flat/flat_merge.h) is checked against, and the
// anchor of its benchmarks: nothing in the daemon uses it.
//
// Merges OTLP requests into one, re-interning every dictionary reference of each source into the
// destination's dictionary. Resources with identical attributes are combined, so a merged batch is
// smaller than the sum of its parts. Only entries that the source's
// profiles reference are copied: orphans are dropped on the way.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "tests/support/dictionary_builder.h"
#include "core/model/otlp_types.h"

namespace proflow {

class RequestMerger {
 public:
  explicit RequestMerger(otlp::Request* dst);

  // Copies `src` into the destination. `src` is only read.
  void append(const otlp::Request& src);
  // Copies only the resources of `src` at `resource_indices` (with what their profiles reference).
  void appendResources(const otlp::Request& src, const std::vector<int>& resource_indices);

  DictionaryBuilder& dictionary() { return dict_; }

 private:
  class Remap;
  std::string resourceKey(const otlp::ResourceProfiles& rp) const;

  otlp::Request* dst_;
  DictionaryBuilder dict_;
  std::unordered_map<std::string, int> resource_by_key_;
};

// Identity of a KeyValue list with reference-based keys and values resolved through `dict`.
std::string keyValuesIdentity(const google::protobuf::RepeatedPtrField<otlp::KeyValue>& kvs,
                              const otlp::Dictionary& dict);

}  // namespace proflow
