// What a receiver keeps of the request that brought a batch (the Collector's client.Info metadata):
// its headers or gRPC metadata, when the receiver's `include_metadata` is on. It travels with the
// batch through the pipeline, so a routing connector can route on `request["X-Scope-OrgID"]`, the
// batch processor can keep tenants apart (`metadata_keys`), the attributes and resource processors
// can copy a value into the data (`from_context`), and the headers_setter extension can send it on
// to the backend. Keys compare case-insensitively (stored lower case, as gRPC sends them). Immutable
// once shared: a batch holds it by shared_ptr<const>.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace proflow {

class ClientMetadata {
 public:
  // Appends a value of `key` (a header given twice keeps both values, in order).
  void add(std::string_view key, std::string value);
  // Every value of `key`, or nullptr when it is absent.
  const std::vector<std::string>* get(std::string_view key) const;
  // The first value of `key`, or "" when it is absent.
  std::string first(std::string_view key) const;
  bool empty() const { return entries_.empty(); }
  // (lower-case key, values), in the order first seen.
  const std::vector<std::pair<std::string, std::vector<std::string>>>& entries() const { return entries_; }
  bool operator==(const ClientMetadata& other) const { return entries_ == other.entries_; }

 private:
  std::vector<std::pair<std::string, std::vector<std::string>>> entries_;
};

using ClientMetadataPtr = std::shared_ptr<const ClientMetadata>;

std::string lowerAscii(std::string_view s);

}  // namespace proflow
