// An append-only file that writes whole records and rotates by size. Records are written with
// write(2), not buffered in user space, so a record is either fully in the file (and visible to
// readers) when write() returns, or reported as failed and cut off again.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/status.h"

namespace proflow::exporters::file {

struct RotationPolicy {
  uint64_t max_bytes = 0;    // 0: never rotate
  uint32_t max_backups = 0;  // 0: keep every rotated file
};

class RotatingFile {
 public:
  RotatingFile(std::string path, RotationPolicy policy);
  ~RotatingFile();
  RotatingFile(const RotatingFile&) = delete;
  RotatingFile& operator=(const RotatingFile&) = delete;

  // Creates parent directories and opens `path` for appending (existing content is kept).
  Status open();
  // Appends one record, rotating first when it would push the file past max_bytes. A record larger
  // than max_bytes goes alone into a fresh file rather than being refused.
  Status write(std::string_view record);
  // fdatasync of the current file.
  Status sync();
  // fsync and close; idempotent.
  Status close();

  bool isOpen() const { return fd_ >= 0; }
  uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }
  // A duplicate descriptor of the current file (caller closes it), so a slow fdatasync can run
  // without holding the writer's lock; -1 when closed.
  int duplicateFd() const;
  // Rotated files of this path, oldest first.
  std::vector<std::string> backups() const;

  // `<dir>/<stem>-2006-01-02T15-04-05.000<ext>` for `<dir>/<stem><ext>`, UTC.
  static std::string backupName(const std::string& path, std::chrono::system_clock::time_point t);

 private:
  Status rotate();
  void pruneBackups();
  Status writeAll(std::string_view data);

  std::string path_;
  RotationPolicy policy_;
  int fd_ = -1;
  uint64_t size_ = 0;
  std::chrono::system_clock::time_point last_backup_{};
};

// Maps an errno from a file operation to a pipeline status: a full disk or quota is retryable
// (kUnavailable: space may come back), everything else is an internal error.
Status fileError(const std::string& what, const std::string& path, int err);

}  // namespace proflow::exporters::file
