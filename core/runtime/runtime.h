// Threads shared by all components: one Asio io_context for network I/O and timers, and a worker
// pool for CPU-heavy work (decoding, conversion, symbolization) so it never stalls the I/O threads.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>

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

  // Stops the I/O threads and waits for queued worker tasks. Components shut down before this.
  void stop();

 private:
  boost::asio::io_context io_;
  std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> guard_;
  std::vector<std::thread> io_threads_;
  boost::asio::thread_pool workers_;
};

}  // namespace proflow
