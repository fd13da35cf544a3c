// What the HTTP and gRPC front ends share: storing a checked upload, finding a file (locally, else
// from the upstream debuginfod servers, whose answers are checked and cached), and the counters.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <optional>
#include <string>

#include "core/component/factory.h"
#include "core/net/http_client.h"
#include "extensions/symbolstore/config.h"
#include "extensions/symbolstore/file_store.h"

namespace proflow::extensions::symbolstore {

class SymbolStore {
 public:
  SymbolStore(const CreateSettings& settings, const SymbolStoreConfig& config);

  // Indexes the directory and publishes the store's gauges.
  Status open();
  FileStore& files() { return files_; }
  uint64_t maxUploadSize() const { return max_upload_; }

  // Stores an upload already written to `temp_path` (from files().newTempPath()); `protocol`
  // ("http", "grpc") labels the counters. INVALID_ARGUMENT when the file fails the check.
  Status storeFile(const std::string& temp_path, const std::string& build_id, Artifact artifact,
                   const char* protocol);
  // The same for an upload received in memory.
  Status storeBytes(std::string_view bytes, const std::string& build_id, Artifact artifact, const char* protocol);

  // Counts an upload refused before its bytes were checked (too large, malformed request, auth).
  void countRefused(const char* protocol, const char* reason);

  // Path of the stored file, fetching it from upstream_debuginfod on a miss; nullopt when nobody
  // has it. Blocks on upstream I/O: call from a worker thread.
  std::optional<std::string> find(const std::string& build_id, Artifact artifact);

 private:
  static constexpr size_t kMaxRememberedMisses = 100000;
  // The miss cache and concurrency cap around askUpstream().
  std::optional<std::string> fetchUpstream(const std::string& build_id, Artifact artifact);
  std::optional<std::string> askUpstream(const std::string& build_id, Artifact artifact);
  void updateGauges();

  CreateSettings settings_;
  FileStore files_;
  uint64_t max_upload_;
  std::vector<std::string> upstream_;
  std::chrono::milliseconds upstream_timeout_;
  std::chrono::nanoseconds upstream_miss_ttl_;
  const int upstream_max_concurrent_;
  std::atomic<int> upstream_in_progress_{0};
  std::mutex misses_mu_;
  std::unordered_map<std::string, std::chrono::steady_clock::time_point> misses_;  // key -> asked again after
  std::unique_ptr<net::HttpClient> client_;
};

}  // namespace proflow::extensions::symbolstore
