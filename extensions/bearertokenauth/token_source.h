// The tokens of a bearertokenauth instance: fixed from the config, or read from a file and read
// again when the file changes (checked at most once a second, on use), so a rotated secret takes
// effect without a restart.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <sys/types.h>
#include <vector>

#include "core/util/status.h"

namespace proflow::extensions::bearertokenauth {

using Tokens = std::vector<std::string>;

class TokenSource {
 public:
  explicit TokenSource(Tokens fixed);
  // Reads `filename` now; start() fails when it cannot.
  static Status fromFile(std::string filename, std::unique_ptr<TokenSource>* out);

  // The current tokens (never empty for a source that loaded). Thread-safe.
  std::shared_ptr<const Tokens> current();

 private:
  TokenSource() = default;
  // Re-reads the file when its identity, size or modification time changed; keeps the old tokens
  // when the new file is unreadable or empty (a half-written rotation must not lock everyone out).
  void refreshIfChanged();

  std::string filename_;
  std::mutex mu_;
  std::shared_ptr<const Tokens> tokens_;
  std::atomic<int64_t> next_check_ns_{0};
  // What the last read saw: inode, size, mtime.
  ino_t inode_ = 0;
  off_t size_ = -1;
  int64_t mtime_ns_ = 0;
};

// One token per line: the first whitespace-separated word; blank lines are skipped.
Tokens parseTokenFile(const std::string& text);

}  // namespace proflow::extensions::bearertokenauth
