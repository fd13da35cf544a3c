// Picks up finished recordings from a directory (the shape of a JVM writing -XX:StartFlightRecording
// files onto a volume shared with a sidecar): every poll_interval, each <suffix> file that has been
// quiet for min_age is read, converted and handed to the pipelines; once accepted it is deleted or
// moved. A refused file stays for the next poll; a file that still does not parse after a minute is
// renamed to <name>.failed so it is not retried forever.
#pragma once

#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "core/factory.h"
#include "receivers/jfr/config.h"
#include "receivers/jfr/jfr_ingest.h"

namespace proflow::receivers::jfr {

class DirectoryWatcher {
 public:
  DirectoryWatcher(const CreateSettings& settings, const JfrReceiverConfig& config, JfrIngest& ingest);
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
  const JfrReceiverConfig& config_;
  const DirectoryConfig& dir_;
  JfrIngest& ingest_;
  telemetry::Counter& files_done_;
  telemetry::Counter& files_failed_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace proflow::receivers::jfr
