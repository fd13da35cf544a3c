// Local binaries (binary_dirs and explicit paths) indexed by the identities a profile may carry:
// GNU build id, Go build id and htlhash. Directories are scanned one level deep, lazily, and again
// when a lookup misses and the last scan is older than `rescan_after`.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "processors/symbolize/binary_ref.h"

namespace proflow::symbolize {

class BinaryIndex {
 public:
  BinaryIndex(std::vector<std::string> dirs, std::vector<std::string> paths, std::chrono::nanoseconds rescan_after);

  // Path of a local binary matching one of `ref`'s (already normalized) ids, if any.
  std::optional<std::string> find(const BinaryRef& ref);

  // Identities of one ELF file; nullopt when it is not an ELF file.
  struct Entry {
    std::string gnu, go, htl;
  };
  static std::optional<Entry> identify(const std::string& path, bool with_htlhash);

 private:
  void scanLocked();
  void addLocked(const std::string& path);
  std::optional<std::string> findLocked(const BinaryRef& ref) const;

  std::vector<std::string> dirs_;
  std::vector<std::string> paths_;
  std::chrono::nanoseconds rescan_after_;
  std::mutex mu_;
  bool scanned_ = false;
  std::chrono::steady_clock::time_point last_scan_{};
  std::unordered_map<std::string, std::string> by_gnu_, by_go_, by_htl_;
};

}  // namespace proflow::symbolize
