#include "core/runtime.h"

namespace proflow {

Runtime::Runtime(unsigned io_threads, unsigned worker_threads)
    : guard_(boost::asio::make_work_guard(io_)), workers_(worker_threads == 0 ? 1 : worker_threads) {
  if (io_threads == 0) io_threads = 1;
  for (unsigned i = 0; i < io_threads; ++i) io_threads_.emplace_back([this] { io_.run(); });
}

Runtime::~Runtime() { stop(); }

void Runtime::stop() {
  guard_.reset();
  io_.stop();
  for (auto& t : io_threads_)
    if (t.joinable()) t.join();
  io_threads_.clear();
  workers_.join();
}

}  // namespace proflow
