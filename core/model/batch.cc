#include "core/model/batch.h"

#include <atomic>
#include <mutex>

#include <google/protobuf/arena.h>

#include "core/flat/flat_convert.h"
#include "core/flat/flat_encode.h"

namespace proflow {
namespace {

struct ArenaRequest {
  google::protobuf::Arena arena;
  otlp::Request* request = google::protobuf::Arena::CreateMessage<otlp::Request>(&arena);
};

std::shared_ptr<otlp::Request> arenaRequest() {
  auto holder = std::make_shared<ArenaRequest>();
  return std::shared_ptr<otlp::Request>(holder, holder->request);  // owned through the arena
}

const std::shared_ptr<const flat::Batch>& emptyData() {
  static const std::shared_ptr<const flat::Batch> empty = std::make_shared<const flat::Batch>();
  return empty;
}

}  // namespace

// Which form holds the content: the flat data when `flat_current`, else the protobuf request the
// batch was made from (converted on first read). The request, once set, stays valid until the next
// mutableData().
struct Batch::State {
  std::mutex mu;  // converting the request to flat data
  std::atomic<bool> flat_current{true};
  std::shared_ptr<const flat::Batch> flat;
  // Set by mutableData(): the same object as `flat`, created by this state and editable.
  std::shared_ptr<flat::Batch> editable;
  std::once_flag request_once;
  std::shared_ptr<otlp::Request> request;
  std::atomic<bool> has_request{false};
};

Batch::Batch() : state_(std::make_shared<State>()) { state_->flat = emptyData(); }

Batch::Batch(std::shared_ptr<const flat::Batch> data) : state_(std::make_shared<State>()) {
  state_->flat = data ? std::move(data) : emptyData();
}

Batch::Batch(flat::Batch&& data) : Batch(std::shared_ptr<const flat::Batch>(std::make_shared<flat::Batch>(std::move(data)))) {}

Batch::Batch(std::unique_ptr<otlp::Request> request) : state_(std::make_shared<State>()) {
  state_->request = request ? std::shared_ptr<otlp::Request>(std::move(request)) : std::make_shared<otlp::Request>();
  state_->has_request = true;
  state_->flat_current = false;
}

Batch::Batch(otlp::Request&& request) : Batch(std::make_unique<otlp::Request>(std::move(request))) {}

const flat::Batch& Batch::data() const {
  State& s = *state_;
  if (!s.flat_current.load(std::memory_order_acquire)) {
    std::lock_guard lock(s.mu);
    if (!s.flat_current.load(std::memory_order_relaxed)) {
      auto converted = std::make_shared<flat::Batch>();
      // Fails only past the flat model's 4 GiB bound, which no receiver accepts: the batch is
      // then empty rather than half converted.
      if (!flat::fromRequest(*s.request, converted.get()).isOk()) converted->clear();
      converted->shrinkToFit();
      s.flat = std::move(converted);
      s.flat_current.store(true, std::memory_order_release);
    }
  }
  return *s.flat;
}

std::shared_ptr<const flat::Batch> Batch::shared() const {
  data();
  return state_->flat;
}

flat::Batch& Batch::mutableData() {
  data();
  State& s = *state_;
  // Edited in place only when this batch created the copy and nobody else holds it (state, data).
  if (state_.use_count() == 1 && s.editable && s.editable.use_count() == 2 && !s.has_request.load())
    return *s.editable;
  // A fresh state: a request materialized before would be stale, and copies of this batch made
  // before keep what they saw.
  auto state = std::make_shared<State>();
  state->editable = std::make_shared<flat::Batch>(*s.flat);
  state->flat = state->editable;
  state_ = std::move(state);
  return *state_->editable;
}

void Batch::materializeRequest() const {
  State& s = *state_;
  std::call_once(s.request_once, [&s] {
    if (s.request) return;  // built by a receiver, or set before
    auto request = arenaRequest();
    // The flat data came from a decoded or merged request: it encodes to a request protobuf reads.
    (void)flat::toRequest(*s.flat, request.get());
    s.request = std::move(request);
    s.has_request.store(true);
  });
}

const otlp::Request& Batch::request() const {
  materializeRequest();
  return *state_->request;
}

bool Batch::hasRequest() const { return state_->has_request.load(); }

Batch Batch::deepCopy() const {
  Batch copy;
  copy.state_->flat = shared();
  return copy;
}

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

BatchCounts Batch::counts() const {
  // An edited request is counted where it is, without converting it.
  if (!state_->flat_current.load(std::memory_order_acquire)) return countRequest(*state_->request);
  const flat::Counts c = state_->flat->counts();
  return {c.resources, c.profiles, c.samples};
}

bool Batch::empty() const { return counts().profiles == 0; }

size_t Batch::encodedSize() const { return flat::encodedSize(data()); }

}  // namespace proflow
