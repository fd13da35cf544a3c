#include "core/runtime/runtime.h"

#include <boost/asio/post.hpp>

#include <latch>
#include <memory>
#include <string>

#include "core/runtime/thread_name.h"

namespace proflow {

Runtime::Runtime(unsigned io_threads, unsigned worker_threads)
    : guard_(boost::asio::make_work_guard(io_)), workers_(worker_threads == 0 ? 1 : worker_threads) {
  if (io_threads == 0) io_threads = 1;
  for (unsigned i = 0; i < io_threads; ++i)
    io_threads_.emplace_back([this, i] { setThreadName("io-" + std::to_string(i)); io_.run(); });
  // Each naming task waits for all the others, so every pool thread runs exactly one of them.
  const unsigned workers = worker_threads == 0 ? 1 : worker_threads;
  auto named = std::make_shared<std::latch>(workers);  // shared: a task may still touch it after wait()
  for (unsigned i = 0; i < workers; ++i)
    boost::asio::post(workers_, [named, i] { setThreadName("worker-" + std::to_string(i)); named->arrive_and_wait(); });
  named->wait();
}

Runtime::~Runtime() { stop(); }

bool Runtime::stop(std::chrono::steady_clock::time_point deadline) {
  guard_.reset();
  io_.stop();
  for (auto& t : io_threads_)
    if (t.joinable()) t.join();
  io_threads_.clear();
  if (!workers_joined_.valid()) {
    std::promise<void> joined;
    workers_joined_ = joined.get_future().share();
    workers_joiner_ = std::thread([this, joined = std::move(joined)]() mutable {
      setThreadName("worker-join");
      workers_.join();
      joined.set_value();
    });
  }
  if (deadline == std::chrono::steady_clock::time_point::max())
    workers_joined_.wait();
  else if (workers_joined_.wait_until(deadline) != std::future_status::ready)
    return false;
  if (workers_joiner_.joinable()) workers_joiner_.join();
  return true;
}

}  // namespace proflow
