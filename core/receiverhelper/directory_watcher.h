// Picks up finished recordings from a directory, for receivers whose producers write files (a JVM's
// -XX:StartFlightRecording files, `perf record -o` output) onto a volume shared with proflow: every
// poll_interval, each <suffix> file that has been quiet for min_age is read and handed to the
// receiver's ingest function; once accepted it is deleted or moved. A refused file (retryable)
// stays for the next poll; a file that still does not parse a minute after its last change is
// renamed to <name>.failed so it is not retried forever; a file over max_bytes is failed at once.
// Only regular files are read, never through a symbolic link (an entry that is one is refused and
// renamed to .failed, O_NOFOLLOW guards the open), and never more than max_bytes of them, even when
// a file grows after it was listed. Refused files count in <kind>_files_failed_total.
#pragma once

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "core/config/config_reader.h"
#include "core/component/factory.h"

namespace proflow {

struct DirectoryWatchConfig {
  std::string path;
  std::string suffix;
  config::Duration poll_interval = std::chrono::seconds(5);
  // A file is picked up once it has not changed for this long and parses completely.
  config::Duration min_age = std::chrono::seconds(5);
  std::string after = "delete";  // delete | move
  std::string move_to;           // for after: move (and where files that fail to parse go, as .failed)
  template <class V>
  void visit(V& v) {
    v.field("path", path, "directory to watch");
    v.field("suffix", suffix, "file name suffix of recordings");
    v.field("poll_interval", poll_interval, "how often the directory is scanned");
    v.field("min_age", min_age, "quiet time before a file counts as finished");
    v.field("after", after, "what to do with a delivered file: delete or move");
    v.field("move_to", move_to, "destination directory for after: move");
  }
  // Errors under `directory.` of the receiver's config.
  void validate(config::ValidationContext& ctx) const;
};

class DirectoryWatcher {
 public:
  // Converts and delivers one file's contents; a retryable status leaves the file for the next poll.
  using Ingest = std::function<Status(std::string_view data, const std::filesystem::path& file)>;

  // `kind` names the counters (<kind>_files_ingested_total, <kind>_files_failed_total) and logs.
  DirectoryWatcher(const CreateSettings& settings, const DirectoryWatchConfig& config, uint64_t max_bytes,
                   std::string kind, Ingest ingest);
  ~DirectoryWatcher();

  Status start();
  void stop();
  // One scan, synchronously (tests and the first poll).
  void scanOnce();

 private:
  void run();
  void handle(const std::filesystem::path& file, std::chrono::seconds age);
  void finish(const std::filesystem::path& file);
  void markFailed(const std::filesystem::path& file, const Status& why);

  const CreateSettings& settings_;
  const DirectoryWatchConfig& dir_;
  uint64_t max_bytes_;
  std::string kind_;
  Ingest ingest_;
  telemetry::Counter& files_done_;
  telemetry::Counter& files_failed_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace proflow
