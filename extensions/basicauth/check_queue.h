// Where basic auth's slow password checks (bcrypt: tens of milliseconds each) run: one thread of its
// own at a lower scheduling priority, behind a bounded queue. I/O threads hand a check over and go
// on serving other connections. The queue is fair between clients: each has a small share of its
// own, clients take turns (one check each), and when the queue is full a newcomer takes the place
// of the newest check of the client with the most waiting. A flood of wrong passwords from one
// client (or a few) is refused beyond its share (503 / UNAVAILABLE, with a retry hint) instead of
// filling the queue for everyone, and waits behind at most one check of each other client.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace proflow::extensions::basicauth {

class CheckQueue {
 public:
  // A queued check. `run` is false when it is not run after all (the queue stops, or it was pushed
  // out for another client's check): it must still answer.
  using Task = std::function<void(bool run)>;

  // At most `capacity` checks wait in all and `per_client` wait or run for one client.
  CheckQueue(size_t capacity, size_t per_client);
  ~CheckQueue();  // stop()
  CheckQueue(const CheckQueue&) = delete;
  CheckQueue& operator=(const CheckQueue&) = delete;

  // Queues `task` for `client`; false (and `task` is not kept) when the client has its share
  // waiting or running, or when the queue is full and no client has more waiting than this one.
  [[nodiscard]] bool trySubmit(const std::string& client, Task task);
  // Answers what is still queued with run=false and joins the thread. Idempotent.
  void stop();

 private:
  struct Client {
    std::deque<Task> waiting;
    size_t running = 0;
  };
  void loop();
  // Under mu_: takes the newest check of the client with the most waiting, when that is more than
  // `than` (the newcomer's count with its new check); empty when there is none.
  Task pushOut(size_t than);
  void forgetIfIdle(const std::string& key);

  const size_t capacity_;
  const size_t per_client_;
  std::mutex mu_;
  std::condition_variable wake_;
  std::map<std::string, Client> clients_;  // those with checks waiting or running
  std::deque<std::string> turns_;          // clients with checks waiting, in serving order
  size_t waiting_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace proflow::extensions::basicauth
