// The on-disk side of a persistent sending queue: one file per accepted batch, named by a sequence
// number so a restart resends in arrival order. A batch is written before consume() acknowledges it
// and deleted once it is delivered or fails for good, so whatever the process held when it stopped
// or crashed is still there on the next start.
//
// Layout: <directory>/<exporter id with '/' as '_'>/
//   lock                         flock()ed while a process owns the queue (two daemons on one queue is an error)
//   00000000000000000042.batch   one batch: a checksummed record (queue_record.h)
//   00000000000000000041.otlp    one batch as earlier versions wrote it (the bare OTLP request), still read
//   *.corrupt                    files that failed their checks on load, moved aside and logged, never resent
//
// What is on disk is read back as untrusted input: only regular files, opened without blocking and
// of bounded size; the checksum must match; the request is decoded with the checks a receiver
// applies to a network body, within a bounded amount of memory.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/exporterhelper/queue_file_ops.h"
#include "core/model/batch.h"
#include "core/util/status.h"

namespace proflow::exporterhelper {

// The largest batch the queue persists (its OTLP encoding); a larger one is refused by append().
inline constexpr size_t kMaxPersistedBatchBytes = size_t{256} << 20;

class PersistentStore {
 public:
  // With `fsync`, append() returns only once the batch and its name are on stable storage.
  PersistentStore(std::string directory, bool fsync,
                  std::shared_ptr<QueueFileOps> ops = std::make_shared<QueueFileOps>());
  ~PersistentStore();
  PersistentStore(const PersistentStore&) = delete;
  PersistentStore& operator=(const PersistentStore&) = delete;

  // Creates the directory, takes the lock and lists the batches a previous run left, oldest first.
  Status open(std::vector<uint64_t>* leftover);
  // Writes `batch` as the next sequence number (write to a temp name, then rename, so a crash never
  // leaves a half file under a real name). Returns the sequence number in `seq`. Thread-safe:
  // concurrent appends take distinct numbers and write in parallel.
  Status append(const Batch& batch, uint64_t* seq);
  // Reads a batch back. kInvalid: the file failed a check and was moved to *.corrupt (the message
  // says why and where); kUnavailable: it cannot be read now (missing, I/O error) and is left alone.
  Status load(uint64_t seq, Batch* batch);
  void remove(uint64_t seq);
  const std::string& directory() const { return dir_; }

 private:
  std::string pathOf(uint64_t seq) const;
  Status writeRecord(const std::string& tmp, const std::string& payload);
  Status syncDirectory();
  Status moveAside(const std::string& path, const std::string& why);

  std::string dir_;
  bool fsync_;
  std::shared_ptr<QueueFileOps> ops_;
  int lock_fd_ = -1;
  std::atomic<uint64_t> next_seq_{1};
  std::unordered_set<uint64_t> legacy_;  // batches in the bare-request format; filled by open() only
  std::mutex load_mu_;                   // one decode at a time: its memory bound holds for the process
};

}  // namespace proflow::exporterhelper
