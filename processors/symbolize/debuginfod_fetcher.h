// Downloads debug info or executables by build id from debuginfod servers through elfutils'
// libdebuginfod. libdebuginfod 0.188 reads its settings (server URLs, timeouts, cache path, size limit)
// from the environment at query time, so fetches are serialized process-wide and the environment is
// set from our options right before each query; a progress callback enforces our own deadline so a
// stalled server can never block a worker forever.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

typedef struct debuginfod_client debuginfod_client;

namespace proflow::symbolize {

struct DebuginfodOptions {
  std::vector<std::string> urls;                 // empty = debuginfod disabled
  std::chrono::milliseconds timeout{30'000};     // whole fetch, including a slow transfer
  std::string cache_dir;                         // empty = libdebuginfod's default cache
  uint64_t max_size = 0;                         // bytes per download; 0 = no limit
};

struct FetchResult {
  std::string path;     // the file in the debuginfod cache; empty on failure
  uint64_t bytes = 0;   // its size
  std::string error;    // why not, when path is empty ("not found" included)
  bool not_found = false;
};

class DebuginfodFetcher {
 public:
  explicit DebuginfodFetcher(DebuginfodOptions options);
  ~DebuginfodFetcher();
  DebuginfodFetcher(const DebuginfodFetcher&) = delete;
  DebuginfodFetcher& operator=(const DebuginfodFetcher&) = delete;

  bool enabled() const { return !options_.urls.empty(); }
  // `hex_build_id` must already be validated (normalizeGnuBuildId).
  FetchResult fetchDebuginfo(const std::string& hex_build_id) { return fetch(hex_build_id, false); }
  FetchResult fetchExecutable(const std::string& hex_build_id) { return fetch(hex_build_id, true); }

 private:
  FetchResult fetch(const std::string& hex_build_id, bool executable);
  void applyEnvironment() const;

  DebuginfodOptions options_;
  debuginfod_client* client_ = nullptr;  // guarded by the process-wide fetch mutex
};

}  // namespace proflow::symbolize
