#include "cmd/proflow/config_watch.h"

#include <fstream>
#include <iterator>

#include "core/util/stable_hash.h"

namespace proflow {

ConfigWatcher::ConfigWatcher(std::vector<std::string> paths, std::chrono::milliseconds interval, uint64_t baseline,
                             std::function<void()> on_change)
    : paths_(std::move(paths)), interval_(interval), seen_(baseline), on_change_(std::move(on_change)) {
  thread_ = std::thread([this] { loop(); });
}

ConfigWatcher::~ConfigWatcher() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

uint64_t ConfigWatcher::fingerprint(const std::vector<std::string>& paths) {
  uint64_t h = 0;
  for (const auto& path : paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      h = stableHash("<unreadable>", h ^ stableHash(path));
      continue;
    }
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    h = stableHash(bytes, h ^ stableHash(path));
  }
  return h;
}

void ConfigWatcher::loop() {
  std::unique_lock lock(mu_);
  while (!cv_.wait_for(lock, interval_, [this] { return stopping_; })) {
    lock.unlock();
    const uint64_t now = fingerprint(paths_);
    if (now != seen_) {
      seen_ = now;
      on_change_();
    }
    lock.lock();
  }
}

}  // namespace proflow
