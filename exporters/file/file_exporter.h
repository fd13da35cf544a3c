// The `file` exporter: encodes each batch as one record and appends it to a file (or, for
// file-per-group formats such as pprof, writes one file per group into a directory), synchronously in
// consume(), so the caller learns about a failed write (disk full -> retryable kUnavailable).
#pragma once

#include <unistd.h>

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>

#include "core/component/factory.h"
#include "exporters/file/config.h"
#include "exporters/file/encoder.h"
#include "exporters/file/group_directory.h"
#include "exporters/file/rotating_file.h"

namespace proflow::exporters::file {

class FileExporter final : public Exporter {
 public:
  FileExporter(const CreateSettings& settings, FileExporterConfig config, std::unique_ptr<Encoder> encoder,
               DataSync data_sync = ::fdatasync);
  ~FileExporter() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;
  Status consume(Batch batch) override;

 private:
  void syncLoop(std::stop_token stop);
  void syncNow();
  void record(telemetry::Event event, const BatchCounts& counts);
  Status writeRecord(const Batch& batch, size_t* bytes);
  // flush_interval 0: returns once record number `written` (and every record before it) is on disk.
  Status syncThrough(uint64_t written);
  Status writeGroups(const Batch& batch, size_t* bytes);

  CreateSettings settings_;
  FileExporterConfig config_;
  std::unique_ptr<Encoder> encoder_;

  std::mutex mu_;  // guards file_, dir_, dirty_ and running_
  RotatingFile file_;  // append formats
  std::unique_ptr<GroupDirectory> dir_;  // file-per-group formats (then file_ stays closed)
  bool running_ = false;
  bool dirty_ = false;  // written since the last fdatasync
  uint64_t written_ = 0;  // records appended to file_ so far

  DataSync data_sync_;
  std::mutex commit_mu_;  // one syncThrough() fdatasync at a time; guards synced_
  uint64_t synced_ = 0;   // records known to be on disk

  std::mutex sync_mu_;
  std::condition_variable_any sync_cv_;
  std::jthread syncer_;  // forces data to disk every flush_interval
};

}  // namespace proflow::exporters::file
