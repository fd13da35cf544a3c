// The output of file-per-group formats (pprof): a directory where every group becomes its own file,
// `<service>-<yyyymmddThhmmss UTC>-<seq><ext>`. Each file is written under a hidden temporary name in
// the same directory and renamed into place, so readers never see a partial file. Writing the
// temporary file and syncing are thread-safe (they may run outside the exporter's lock); publish()
// and takePending() are not: the exporter serializes them, which keeps the sequence in order.
#pragma once

#include <chrono>
#include <unistd.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/status.h"

namespace proflow::exporters::file {

// Forces a file's data to disk: fdatasync(2), unless a test stands in for it.
using DataSync = std::function<int(int fd)>;

class GroupDirectory {
 public:
  GroupDirectory(std::string dir, std::string extension, DataSync data_sync = ::fdatasync);

  // Creates the directory (and its parents).
  Status open();
  // Writes `data` to a new hidden temporary file, fdatasync'd with `sync` (flush_interval 0).
  Status writeTemp(std::string_view data, bool sync, std::string* tmp) const;
  // Renames a temporary file into place under the next name and sets *path to it. Without `sync`
  // the file is remembered for takePending(); with it, call syncDirectory() once renames are done.
  Status publish(const std::string& tmp, std::string_view service, bool sync, std::string* path);
  // Removes a temporary file that will not be published.
  void discard(const std::string& tmp) const;
  // fsync of the directory, so the renames into it are durable.
  Status syncDirectory() const;
  // Files renamed into place since the last call (for a later fdatasync outside the writer lock).
  std::vector<std::string> takePending();
  // fdatasync of each file, then fsync of the directory so the renames are durable too.
  Status syncFiles(const std::vector<std::string>& files) const;

  const std::string& dir() const { return dir_; }

  // `<service>-20260102T150405-000007<ext>`: service sanitized for a file name, "unknown" when empty.
  static std::string fileName(std::string_view service, std::chrono::system_clock::time_point t, uint64_t seq,
                              std::string_view extension);

 private:
  std::string dir_;
  std::string extension_;
  DataSync data_sync_;
  uint64_t seq_ = 0;
  std::vector<std::string> pending_;
};

}  // namespace proflow::exporters::file
