// Threads shared by all components: one Asio io_context for network I/O and timers, and a worker
// pool for CPU-heavy work (decoding, conversion, symbolization) so it never stalls the I/O threads.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>

#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace proflow {

class Runtime {
 public:
  // io_threads handle sockets and timers; worker_threads run decode/convert work.
  explicit Runtime(unsigned io_threads = 1, unsigned worker_threads = 2);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  boost::asio::io_context& io() { return io_; }
  boost::asio::thread_pool& workers() { return workers_; }

  // Stops the I/O threads and waits for the worker tasks queued or running, until `deadline`.
  // Components shut down before this. False when a task still runs at the deadline (a request
  // stuck in a slow peer or a long parse): its thread is left to it, so the caller must keep what
  // the task uses alive (the daemon exits at once instead). Called again, it waits again.
  bool stop(std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

 private:
  boost::asio::io_context io_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> guard_;
  std::vector<std::thread> io_threads_;
  boost::asio::thread_pool workers_;
  // Joins the worker pool (started by the first stop()), so stop() can give up at its deadline.
  std::thread workers_joiner_;
  std::shared_future<void> workers_joined_;
};

}  // namespace proflow
