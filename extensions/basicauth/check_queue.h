// Where basic auth's slow password checks (bcrypt: tens of milliseconds each) run: one thread of its
// own at a lower scheduling priority, behind a short queue. I/O threads hand a check over and go on
// serving other connections; a flood of wrong passwords fills the queue and is refused (503 /
// UNAVAILABLE, with a retry hint) instead of taking the CPU from every other listener and the workers.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace proflow::extensions::basicauth {

class CheckQueue {
 public:
  // A queued check. `run` is false when the queue stops before running it: it must still answer.
  using Task = std::function<void(bool run)>;

  explicit CheckQueue(size_t capacity);
  ~CheckQueue();  // stop()
  CheckQueue(const CheckQueue&) = delete;
  CheckQueue& operator=(const CheckQueue&) = delete;

  // Queues `task`; false (and `task` is not kept) when `capacity` checks are waiting or running.
  bool trySubmit(Task task);
  // Answers what is still queued with run=false and joins the thread. Idempotent.
  void stop();

 private:
  void loop();

  const size_t capacity_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::deque<Task> queue_;
  size_t running_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace proflow::extensions::basicauth
