// The on-disk side of a persistent sending queue: one file per accepted batch (the serialized OTLP
// request), named by a sequence number so a restart resends in arrival order. A batch is written
// before consume() acknowledges it and deleted once it is delivered or fails for good, so whatever
// the process held when it stopped or crashed is still there on the next start.
//
// Layout: <directory>/<exporter id with '/' as '_'>/
//   lock                  flock()ed while a process owns the queue (two daemons on one queue is an error)
//   00000000000000000042.otlp   one batch
//   *.corrupt             files that could not be read back, moved aside and logged, never resent
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/batch.h"
#include "core/util/status.h"

namespace proflow::exporterhelper {

class PersistentStore {
 public:
  PersistentStore(std::string directory, bool fsync) : dir_(std::move(directory)), fsync_(fsync) {}
  ~PersistentStore();
  PersistentStore(const PersistentStore&) = delete;
  PersistentStore& operator=(const PersistentStore&) = delete;

  // Creates the directory, takes the lock and lists the batches a previous run left, oldest first.
  Status open(std::vector<uint64_t>* leftover);
  // Writes `batch` as the next sequence number (write to a temp name, then rename, so a crash never
  // leaves a half file under a real name). Returns the sequence number in `seq`. Thread-safe:
  // concurrent appends take distinct numbers and write in parallel.
  Status append(const Batch& batch, uint64_t* seq);
  // Reads a batch back. A file that does not parse is renamed to *.corrupt; the error says so.
  Status load(uint64_t seq, Batch* batch);
  void remove(uint64_t seq);
  const std::string& directory() const { return dir_; }

 private:
  std::string pathOf(uint64_t seq) const;

  std::string dir_;
  bool fsync_;
  int lock_fd_ = -1;
  std::atomic<uint64_t> next_seq_{1};
};

}  // namespace proflow::exporterhelper
