// Concurrency slots of a listener, capped in total, per connection and per client, so that no one
// connection or client can hold all of them: a client that opens many calls and stalls them (never
// sends its message, never reads its answer) is refused beyond its share while the others still
// get slots. A slot is released by whichever comes first of its owner being done and a watchdog
// giving up on a stalled call.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/util/status.h"

namespace proflow::net {

class CallSlots : public std::enable_shared_from_this<CallSlots> {
 public:
  struct Limits {
    int total = 64;
    int per_connection = 16;
    int per_client = 32;
  };

  // A held slot; released once (release() or destruction), from any thread.
  class Slot {
   public:
    ~Slot() { release(); }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;
    void release();

   private:
    friend class CallSlots;
    Slot(std::shared_ptr<CallSlots> owner, std::string connection, std::string client)
        : owner_(std::move(owner)), connection_(std::move(connection)), client_(std::move(client)) {}
    std::mutex mu_;
    std::shared_ptr<CallSlots> owner_;  // null once released
    std::string connection_;
    std::string client_;
  };

  static std::shared_ptr<CallSlots> make(Limits limits) { return std::shared_ptr<CallSlots>(new CallSlots(limits)); }

  // A slot for a call on `connection` (unique per open connection, e.g. the peer's ip:port) from
  // `client` (who the caller is: its credential or its address; "" = not counted per client), or
  // RESOURCE_EXHAUSTED with a retry hint naming the cap that was reached.
  Status acquire(const std::string& connection, const std::string& client, std::unique_ptr<Slot>* out);

  int held() const;

 private:
  explicit CallSlots(Limits limits) : limits_(limits) {}
  void release(const std::string& connection, const std::string& client);

  const Limits limits_;
  mutable std::mutex mu_;
  int total_ = 0;
  std::map<std::string, int> per_connection_;
  std::map<std::string, int> per_client_;
};

}  // namespace proflow::net
