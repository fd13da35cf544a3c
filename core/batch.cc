#include "core/batch.h"

#include <google/protobuf/arena.h>

namespace proflow {
namespace {

struct ArenaRequest {
  google::protobuf::Arena arena;
  otlp::Request* request = google::protobuf::Arena::CreateMessage<otlp::Request>(&arena);
};

}  // namespace

Batch::Batch() : request_(std::make_shared<otlp::Request>()) {}
Batch::Batch(std::unique_ptr<otlp::Request> request) : request_(std::move(request)) {
  if (!request_) request_ = std::make_shared<otlp::Request>();
}
Batch::Batch(otlp::Request&& request) : request_(std::make_shared<otlp::Request>(std::move(request))) {}

Batch Batch::withArena() {
  auto holder = std::make_shared<ArenaRequest>();
  Batch batch;
  batch.request_ = std::shared_ptr<otlp::Request>(holder, holder->request);  // owned through the arena
  return batch;
}

Batch Batch::deepCopy() const { return Batch(std::make_unique<otlp::Request>(*request_)); }

BatchCounts countRequest(const otlp::Request& request) {
  BatchCounts c;
  c.resources = static_cast<uint64_t>(request.resource_profiles_size());
  for (const auto& rp : request.resource_profiles())
    for (const auto& sp : rp.scope_profiles()) {
      c.profiles += static_cast<uint64_t>(sp.profiles_size());
      for (const auto& p : sp.profiles()) c.samples += static_cast<uint64_t>(p.samples_size());
    }
  return c;
}

BatchCounts Batch::counts() const { return countRequest(*request_); }

bool Batch::empty() const {
  for (const auto& rp : request_->resource_profiles())
    for (const auto& sp : rp.scope_profiles())
      if (sp.profiles_size() > 0) return false;
  return true;
}

}  // namespace proflow
