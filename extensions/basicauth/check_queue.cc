#include "extensions/basicauth/check_queue.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "core/runtime/thread_name.h"

namespace proflow::extensions::basicauth {
namespace {

// Below the I/O threads and the workers (nice 0): a guessing client spends its own share of CPU.
constexpr int kNice = 10;

}  // namespace

CheckQueue::CheckQueue(size_t capacity, size_t per_client) : capacity_(capacity), per_client_(per_client) {
  thread_ = std::thread([this] {
    setThreadName("basicauth-check");
    // Linux applies a thread's nice value to that thread alone. Best effort.
    (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), kNice);
    loop();
  });
}

CheckQueue::~CheckQueue() { stop(); }

bool CheckQueue::trySubmit(const std::string& key, Task task) {
  Task pushed_out;
  {
    std::lock_guard lock(mu_);
    if (stopping_) return false;
    Client& client = clients_[key];
    if (client.waiting.size() + client.running >= per_client_) return false;
    if (waiting_ >= capacity_) {
      pushed_out = pushOut(client.waiting.size() + 1);
      if (!pushed_out) {
        forgetIfIdle(key);
        return false;
      }
    }
    client.waiting.push_back(std::move(task));
    ++waiting_;
    if (client.waiting.size() == 1) turns_.push_back(key);
    wake_.notify_one();
  }
  if (pushed_out) pushed_out(false);
  return true;
}

CheckQueue::Task CheckQueue::pushOut(size_t than) {
  auto most = clients_.end();
  for (auto it = clients_.begin(); it != clients_.end(); ++it)
    if (most == clients_.end() || it->second.waiting.size() > most->second.waiting.size()) most = it;
  if (most == clients_.end() || most->second.waiting.size() <= than) return {};
  Task task = std::move(most->second.waiting.back());
  most->second.waiting.pop_back();
  --waiting_;
  if (most->second.waiting.empty()) turns_.erase(std::find(turns_.begin(), turns_.end(), most->first));
  forgetIfIdle(most->first);
  return task;
}

void CheckQueue::forgetIfIdle(const std::string& key) {
  auto it = clients_.find(key);
  if (it != clients_.end() && it->second.waiting.empty() && it->second.running == 0) clients_.erase(it);
}

void CheckQueue::stop() {
  std::vector<Task> unrun;
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    for (auto& [key, client] : clients_)
      for (auto& task : client.waiting) unrun.push_back(std::move(task));
    for (auto it = clients_.begin(); it != clients_.end();) {
      it->second.waiting.clear();
      it = it->second.running ? std::next(it) : clients_.erase(it);
    }
    turns_.clear();
    waiting_ = 0;
  }
  wake_.notify_all();
  for (auto& task : unrun) task(false);
  if (thread_.joinable()) thread_.join();
}

void CheckQueue::loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !turns_.empty(); });
    if (turns_.empty()) return;  // stopping
    const std::string key = std::move(turns_.front());
    turns_.pop_front();
    Client& client = clients_.at(key);
    Task task = std::move(client.waiting.front());
    client.waiting.pop_front();
    --waiting_;
    ++client.running;
    // One check per turn: a client with more waiting goes to the back of the line.
    if (!client.waiting.empty()) turns_.push_back(key);
    lock.unlock();
    task(true);
    lock.lock();
    --clients_.at(key).running;
    forgetIfIdle(key);
  }
}

}  // namespace proflow::extensions::basicauth
