#include "core/net/call_slots.h"

#include <chrono>

namespace proflow::net {
namespace {

Status full(const std::string& what, const char* key, int limit) {
  return Status::exhausted("too many concurrent requests" + what + " (" + key + " " + std::to_string(limit) +
                           "); retry later")
      .withRetryAfter(std::chrono::seconds(1));
}

}  // namespace

void CallSlots::Slot::release() {
  std::shared_ptr<CallSlots> owner;
  {
    std::lock_guard lock(mu_);
    owner = std::move(owner_);
  }
  if (owner) owner->release(connection_, client_);
}

Status CallSlots::acquire(const std::string& connection, const std::string& client, std::unique_ptr<Slot>* out) {
  {
    std::lock_guard lock(mu_);
    // The per-connection and per-client caps come first, so that a client at its share is told so
    // even when the listener as a whole has room.
    auto conn = per_connection_.find(connection);
    if (conn != per_connection_.end() && conn->second >= limits_.per_connection)
      return full(" on one connection", "max_concurrent_requests_per_connection", limits_.per_connection);
    if (!client.empty()) {
      auto it = per_client_.find(client);
      if (it != per_client_.end() && it->second >= limits_.per_client)
        return full(" from one client", "max_concurrent_requests_per_client", limits_.per_client);
    }
    if (total_ >= limits_.total) return full("", "max_concurrent_requests", limits_.total);
    ++total_;
    ++per_connection_[connection];
    if (!client.empty()) ++per_client_[client];
  }
  out->reset(new Slot(shared_from_this(), connection, client));
  return Status::ok();
}

void CallSlots::release(const std::string& connection, const std::string& client) {
  std::lock_guard lock(mu_);
  --total_;
  if (auto it = per_connection_.find(connection); it != per_connection_.end() && --it->second == 0)
    per_connection_.erase(it);
  if (client.empty()) return;
  if (auto it = per_client_.find(client); it != per_client_.end() && --it->second == 0) per_client_.erase(it);
}

int CallSlots::held() const {
  std::lock_guard lock(mu_);
  return total_;
}

}  // namespace proflow::net
