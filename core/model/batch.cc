#include "core/model/batch.h"

#include "core/flat/flat_encode.h"

namespace proflow {
namespace {

const std::shared_ptr<const flat::Batch>& emptyData() {
  static const std::shared_ptr<const flat::Batch> empty = std::make_shared<const flat::Batch>();
  return empty;
}

}  // namespace

struct Batch::State {
  std::shared_ptr<const flat::Batch> flat;
  // The same object as `flat` when this state created it (moved in, or mutableData()'s copy), so
  // an editor holding it alone edits it in place.
  std::shared_ptr<flat::Batch> editable;
};

Batch::Batch() : state_(std::make_shared<State>()) { state_->flat = emptyData(); }

Batch::Batch(std::shared_ptr<const flat::Batch> data) : state_(std::make_shared<State>()) {
  state_->flat = data ? std::move(data) : emptyData();
}

Batch::Batch(flat::Batch&& data) : state_(std::make_shared<State>()) {
  // Nobody else can see data moved in: the first editor needs no copy while it is the only holder.
  state_->editable = std::make_shared<flat::Batch>(std::move(data));
  state_->flat = state_->editable;
}

const flat::Batch& Batch::data() const { return *state_->flat; }

std::shared_ptr<const flat::Batch> Batch::shared() const { return state_->flat; }

flat::Batch& Batch::mutableData() {
  State& s = *state_;
  // Edited in place only when this batch created the copy and nobody else holds it (state, data).
  if (state_.use_count() == 1 && s.editable && s.editable.use_count() == 2) return *s.editable;
  // A fresh state: copies of this batch made before keep what they saw.
  auto state = std::make_shared<State>();
  state->editable = std::make_shared<flat::Batch>(*s.flat);
  state->flat = state->editable;
  state_ = std::move(state);
  return *state_->editable;
}

Batch Batch::deepCopy() const {
  Batch copy;
  copy.state_->flat = shared();
  copy.metadata_ = metadata_;
  return copy;
}

BatchCounts Batch::counts() const {
  const flat::Counts c = state_->flat->counts();
  return {c.resources, c.profiles, c.samples};
}

bool Batch::empty() const { return counts().profiles == 0; }

size_t Batch::encodedSize() const { return flat::encodedSize(data()); }

}  // namespace proflow
