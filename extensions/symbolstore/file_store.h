// The store on disk: `<directory>/<build id>/debuginfo` and `.../executable`, written by atomic
// rename from `<directory>/.tmp/`, with a byte quota enforced by evicting the least recently used
// files. The index is rebuilt from the directory at open(); last use survives restarts as the
// files' modification times.
#pragma once

#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/util/status.h"
#include "core/component/symbol_source.h"

namespace proflow::extensions::symbolstore {

using Artifact = SymbolSource::Artifact;

const char* artifactName(Artifact a);  // "debuginfo", "executable"

class FileStore {
 public:
  FileStore(std::string directory, uint64_t quota_bytes);

  // Creates the directories, removes leftover temp files, indexes what is stored and evicts down to
  // the quota. Errors name the directory.
  Status open();

  // A new, unique path in the store's temp folder (same file system, so commit() is a rename).
  std::string newTempPath();

  // Checks `temp_path` (ELF with GNU build id `build_id`) and moves it into place, then evicts least
  // recently used files beyond the quota. A stored file is never replaced: the same bytes again are
  // OK, other bytes FAILED_PRECONDITION (`reason` "exists"). The temp file is gone afterwards either
  // way. INVALID_ARGUMENT when the check fails (`reason` as in checkElfFile).
  Status commit(const std::string& temp_path, const std::string& build_id, Artifact artifact,
                const char** reason = nullptr);

  // The stored file's path (and marks it used), or nullopt. `build_id` must be normalized.
  std::optional<std::string> find(const std::string& build_id, Artifact artifact);
  bool contains(const std::string& build_id, Artifact artifact) const;

  struct Stats {
    uint64_t bytes = 0;
    size_t files = 0;
    uint64_t evictions = 0;
  };
  Stats stats() const;

 private:
  struct Entry {
    uint64_t size = 0;
    std::list<std::string>::iterator lru;  // position in lru_ (front = least recently used)
  };
  std::string pathOf(const std::string& key) const;
  void insertLocked(const std::string& key, uint64_t size);
  void evictLocked(const std::string& keep);

  const std::string directory_;
  const uint64_t quota_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, Entry> entries_;  // key "<build id>/<artifact>"
  std::list<std::string> lru_;
  uint64_t bytes_ = 0;
  uint64_t evictions_ = 0;
  uint64_t temp_counter_ = 0;
};

}  // namespace proflow::extensions::symbolstore
