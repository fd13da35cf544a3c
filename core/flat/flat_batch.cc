#include "core/flat/flat_batch.h"

#include <stdexcept>
#include <string>

namespace proflow::flat {
namespace {

template <class T>
size_t heapBytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

template <class T>
void shrink(std::vector<T>& v) {
  v.shrink_to_fit();
}

// Applies `fn` to every column of the batch (one list, so sizes and shrinking never miss one).
template <class B, class Fn>
void forEachColumn(B& b, Fn&& fn) {
  fn(b.strings), fn(b.mappings), fn(b.locations), fn(b.functions), fn(b.links), fn(b.attributes);
  fn(b.stacks), fn(b.lines), fn(b.indices), fn(b.resources), fn(b.scopes), fn(b.profiles);
  fn(b.key_values), fn(b.entity_refs), fn(b.samples.stack_index), fn(b.samples.link_index);
  fn(b.samples.attributes), fn(b.samples.values), fn(b.samples.timestamps), fn(b.values), fn(b.timestamps);
}

}  // namespace

void throwArenaFull(size_t arena, size_t adding) {
  throw std::length_error("flat batch arena of " + std::to_string(arena) + " bytes cannot take " +
                          std::to_string(adding) + " more: its offsets are 32-bit (4 GiB)");
}

uint32_t Batch::addScope(uint32_t r, const Scope& scope) {
  const auto index = static_cast<uint32_t>(scopes.size());
  scopes.push_back(scope);
  scopes.back().next_scope = kNone;
  Resource& res = resources[r];
  if (res.last_scope == kNone)
    res.first_scope = index;
  else
    scopes[res.last_scope].next_scope = index;
  res.last_scope = index;
  ++res.scope_count;
  return index;
}

Counts Batch::counts() const {
  Counts c;
  c.resources = resources.size();
  for (const Resource& r : resources)
    forEachScope(r, [&](uint32_t s) {
      const Range& p = scopes[s].profiles;
      c.profiles += p.size;
      for (uint32_t i = p.begin; i < p.end(); ++i) c.samples += profiles[i].samples.size;
    });
  return c;
}

size_t Batch::memoryBytes() const {
  // std::string keeps short contents inline (no heap block): count only a heap buffer.
  const size_t arena_heap = arena.capacity() > std::string().capacity() ? arena.capacity() + 1 : 0;
  size_t total = sizeof(Batch) + arena_heap;
  forEachColumn(*this, [&](const auto& column) { total += heapBytes(column); });
  return total;
}

void Batch::shrinkToFit() {
  arena.shrink_to_fit();
  forEachColumn(*this, [](auto& column) { shrink(column); });
}

}  // namespace proflow::flat
