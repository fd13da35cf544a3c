// --watch-config: polls the --config files and calls back when their contents change (a hash of
// the bytes, so touching a file or a clock skew changes nothing, and an editor's rename is seen).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace proflow {

class ConfigWatcher {
 public:
  // `on_change` runs on the watcher's thread. `baseline`: the fingerprint of what was loaded (taken
  // before loading, so a change made while the service started is not missed).
  ConfigWatcher(std::vector<std::string> paths, std::chrono::milliseconds interval, uint64_t baseline,
                std::function<void()> on_change);
  ~ConfigWatcher();  // stops the thread
  ConfigWatcher(const ConfigWatcher&) = delete;
  ConfigWatcher& operator=(const ConfigWatcher&) = delete;

  // Hash of every file's contents in order; an unreadable file counts as a distinct state.
  static uint64_t fingerprint(const std::vector<std::string>& paths);

 private:
  void loop();

  std::vector<std::string> paths_;
  std::chrono::milliseconds interval_;
  uint64_t seen_;
  std::function<void()> on_change_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace proflow
