// Internal to the JFR converter: an append-only log of one value per event (its sample row, its time,
// its value), read back in order when the events are placed into the batch's columns.
//
// The log grows in blocks and never moves what it holds. A vector of half a million events doubles
// its way there, copying into fresh memory each time, and the kernel zeroes every page of each new
// buffer before the copy touches it: those copies were a third of the page faults of `proflow convert`
// of a large recording.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

namespace proflow::jfr::internal {

template <class T>
class EventLog {
 public:
  void push_back(T v) {
    if (fill_ == kBlock) [[unlikely]]
      addBlock();
    tail_[fill_++] = v;
  }
  size_t size() const { return blocks_.empty() ? 0 : (blocks_.size() - 1) * kBlock + fill_; }
  bool empty() const { return size() == 0; }
  const T& operator[](size_t i) const { return blocks_[i / kBlock][i % kBlock]; }

  // Replaces the contents with `n` copies of `v`.
  void assign(size_t n, T v) {
    clear();
    for (size_t i = 0; i < n; ++i) push_back(v);
  }
  void clear() {
    blocks_.clear();
    tail_ = nullptr;
    fill_ = kBlock;
  }

  // fn(value) for each value, in order.
  template <class Fn>
  void forEach(Fn&& fn) const {
    for (size_t b = 0; b < blocks_.size(); ++b) {
      const size_t n = b + 1 == blocks_.size() ? fill_ : kBlock;
      for (size_t i = 0; i < n; ++i) fn(blocks_[b][i]);
    }
  }

 private:
  // 8,192 values: 32 or 64 KiB, below glibc's mmap threshold, so freed blocks go back to the heap
  // for what the conversion allocates next.
  static constexpr size_t kBlock = 8192;

  void addBlock() {
    blocks_.push_back(std::make_unique_for_overwrite<T[]>(kBlock));
    tail_ = blocks_.back().get();
    fill_ = 0;
  }

  std::vector<std::unique_ptr<T[]>> blocks_;
  T* tail_ = nullptr;
  size_t fill_ = kBlock;
};

}  // namespace proflow::jfr::internal
