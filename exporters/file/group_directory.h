// The output of file-per-group formats (pprof): a directory where every group becomes its own file,
// `<service>-<yyyymmddThhmmss UTC>-<seq><ext>`. Each file is written under a hidden temporary name in
// the same directory and renamed into place, so readers never see a partial file. Not thread-safe:
// the exporter serializes calls.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/status.h"

namespace proflow::exporters::file {

class GroupDirectory {
 public:
  GroupDirectory(std::string dir, std::string extension);

  // Creates the directory (and its parents).
  Status open();
  // Writes one file atomically. `sync`: fdatasync before the rename and fsync the directory after
  // (flush_interval 0); otherwise the file is remembered for syncPending(). Sets *path to its name.
  Status write(std::string_view service, std::string_view data, bool sync, std::string* path);
  // Files renamed into place since the last call (for a later fdatasync outside the writer lock).
  std::vector<std::string> takePending();
  // fdatasync of each file, then fsync of the directory so the renames are durable too.
  Status syncFiles(const std::vector<std::string>& files) const;

  const std::string& dir() const { return dir_; }

  // `<service>-20260102T150405-000007<ext>`: service sanitized for a file name, "unknown" when empty.
  static std::string fileName(std::string_view service, std::chrono::system_clock::time_point t, uint64_t seq,
                              std::string_view extension);

 private:
  Status writeTemp(const std::string& tmp, std::string_view data, bool sync) const;
  Status publish(const std::string& tmp, std::string_view service, std::string* path);

  std::string dir_;
  std::string extension_;
  uint64_t seq_ = 0;
  std::vector<std::string> pending_;
};

}  // namespace proflow::exporters::file
