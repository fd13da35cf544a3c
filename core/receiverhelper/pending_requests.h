// Requests a receiver has accepted and queued for its worker pool but not finished: a cap on how
// many bodies may wait in memory (beyond it the receiver answers 429), and a wait at shutdown so
// that what was accepted still reaches the pipeline.
#pragma once

#include <atomic>
#include <chrono>
#include <limits>
#include <thread>

#include "core/component/component.h"

namespace proflow::receiverhelper {

class PendingRequests {
 public:
  // Without a limit the count only serves shutdown (what bounds the bodies is elsewhere, e.g. the
  // listener's in-flight budget).
  explicit PendingRequests(int limit = std::numeric_limits<int>::max()) : limit_(limit) {}

  void add() { count_.fetch_add(1); }

  // Counts one more request, or returns false (counting nothing) when `limit` are pending.
  [[nodiscard]] bool tryAdd() {
    if (count_.fetch_add(1) >= limit_) {
      count_.fetch_sub(1);
      return false;
    }
    return true;
  }
  void done() { count_.fetch_sub(1); }
  int count() const { return count_.load(); }

  // Returns once none is pending, or at `deadline`.
  void drain(Deadline deadline) const {
    while (count_.load() > 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }

 private:
  const int limit_;
  std::atomic<int> count_{0};
};

}  // namespace proflow::receiverhelper
