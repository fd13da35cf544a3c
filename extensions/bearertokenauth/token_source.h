// The tokens of a bearertokenauth instance: fixed from the config, or read from a file and read
// again when the file changes (checked once a second by a thread of its own), so a rotated secret
// takes effect without a restart. Callers (I/O threads authenticating requests) only copy a
// pointer: a slow or hung file system never holds them up.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <sys/types.h>
#include <thread>
#include <vector>

#include "core/util/status.h"

namespace proflow::extensions::bearertokenauth {

using Tokens = std::vector<std::string>;

class TokenSource {
 public:
  explicit TokenSource(Tokens fixed);
  ~TokenSource();  // stops the refresher
  TokenSource(const TokenSource&) = delete;
  TokenSource& operator=(const TokenSource&) = delete;
  // Reads `filename` now (start() fails when it cannot), then checks it every `interval`.
  static Status fromFile(std::string filename, std::unique_ptr<TokenSource>* out,
                         std::chrono::milliseconds interval = std::chrono::seconds(1));

  // The current tokens (never empty for a source that loaded). Thread-safe; never touches the file.
  std::shared_ptr<const Tokens> current() const;

 private:
  TokenSource() = default;
  // Re-reads the file when its identity, size or modification time changed; keeps the old tokens
  // when the new file is unreadable or empty (a half-written rotation must not lock everyone out).
  // Only the refresher thread (and fromFile before it starts) calls it.
  void refreshIfChanged();
  void refreshLoop(std::chrono::milliseconds interval);

  std::string filename_;
  mutable std::mutex mu_;  // guards tokens_ (a pointer copy) and stopping_
  std::shared_ptr<const Tokens> tokens_;
  bool stopping_ = false;
  std::condition_variable stop_;
  std::thread refresher_;
  // What the last read saw (refresher only): inode, size, mtime.
  ino_t inode_ = 0;
  off_t size_ = -1;
  int64_t mtime_ns_ = 0;
};

// One token per line: the first whitespace-separated word; blank lines are skipped.
Tokens parseTokenFile(const std::string& text);

}  // namespace proflow::extensions::bearertokenauth
