// How many group members began handling a record and never finished (each died or stalled on it),
// kept with the partition's committed offset as its commit metadata ("proflow-attempts=N"): the
// count outlives the process that died, as JetStream's delivery count does. A record whose count
// would exceed max_deliver is given up (skipped as poison) without being decoded again.
//
// Only some records carry a count, so the steady state costs nothing: the first record a member
// handles after an assignment (one synchronous commit per partition and assignment), and, when the
// committed offset already had a count (a previous owner never got past it), every record up to the
// high watermark seen at assignment, one by one, since the record that took the previous owner down
// is among those.
#pragma once

#include <librdkafka/rdkafka.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>

namespace proflow::receivers::kafka {

using Partition = std::pair<std::string, int32_t>;  // topic, partition

class AttemptLedger {
 public:
  // `max_deliver` 0 disables the ledger. `warn` reports commits and reads that failed (the count
  // is then not kept: the record is retried rather than given up).
  AttemptLedger(int max_deliver, std::function<void(const std::string&)> warn);

  // On assignment: reads the committed offsets and their counts (one request), and the high
  // watermark of partitions whose count is not 0. Must run on the consumer's thread.
  void assigned(rd_kafka_t* rk, const rd_kafka_topic_partition_list_t* partitions);
  void revoked(const rd_kafka_topic_partition_list_t* partitions);

  enum class Verdict { kUncounted, kCounted, kGiveUp };
  // Before handling record `offset` of `p`: kCounted once its count, raised by one, is committed;
  // kGiveUp when that count would exceed max_deliver (`*attempts` says how many began before).
  Verdict begin(rd_kafka_t* rk, const Partition& p, int64_t offset, int* attempts);
  // A counted record was handled to the end (accepted, skipped): commits the offset after it at
  // once, so that a rebalance that follows does not count it again.
  void finished(rd_kafka_t* rk, const Partition& p, int64_t offset);
  // A counted record was refused by the pipeline: it did not take the member down, so its count
  // goes back to 0 (its offset stays committed: it is read again).
  void refused(rd_kafka_t* rk, const Partition& p, int64_t offset);

  // The commit metadata of a count, and back (0 for anything else).
  static std::string encode(int attempts);
  static int decode(const void* metadata, size_t size);

 private:
  struct Entry {
    int64_t committed = RD_KAFKA_OFFSET_INVALID;  // offset `attempts` belongs to
    int attempts = 0;
    bool first = true;             // the first record after the assignment is counted
    int64_t count_below = -1;      // records below this offset are counted one by one
  };
  bool commit(rd_kafka_t* rk, const Partition& p, int64_t offset, int attempts);

  int max_deliver_;
  std::function<void(const std::string&)> warn_;
  std::map<Partition, Entry> entries_;
};

}  // namespace proflow::receivers::kafka
