#include "extensions/basicauth/check_queue.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <vector>

#include "core/runtime/thread_name.h"

namespace proflow::extensions::basicauth {
namespace {

// Below the I/O threads and the workers (nice 0): a guessing client spends its own share of CPU.
constexpr int kNice = 10;

}  // namespace

CheckQueue::CheckQueue(size_t capacity) : capacity_(capacity) {
  thread_ = std::thread([this] {
    setThreadName("basicauth-check");
    // Linux applies a thread's nice value to that thread alone. Best effort.
    (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kNice);
    loop();
  });
}

CheckQueue::~CheckQueue() { stop(); }

bool CheckQueue::trySubmit(Task task) {
  std::lock_guard lock(mu_);
  if (stopping_ || queue_.size() + running_ >= capacity_) return false;
  queue_.push_back(std::move(task));
  wake_.notify_one();
  return true;
}

void CheckQueue::stop() {
  std::vector<Task> unrun;
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    unrun.assign(std::make_move_iterator(queue_.begin()), std::make_move_iterator(queue_.end()));
    queue_.clear();
  }
  wake_.notify_all();
  for (auto& task : unrun) task(false);
  if (thread_.joinable()) thread_.join();
}

void CheckQueue::loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping
    Task task = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lock.unlock();
    task(true);
    lock.lock();
    --running_;
  }
}

}  // namespace proflow::extensions::basicauth
