#include "receivers/kafka/attempt_ledger.h"

#include <cstring>
#include <memory>

namespace proflow::receivers::kafka {
namespace {

constexpr std::string_view kPrefix = "proflow-attempts=";
constexpr int kTimeoutMs = 5000;

struct ListDeleter {
  void operator()(rd_kafka_topic_partition_list_t* l) const { rd_kafka_topic_partition_list_destroy(l); }
};
using List = std::unique_ptr<rd_kafka_topic_partition_list_t, ListDeleter>;

}  // namespace

AttemptLedger::AttemptLedger(int max_deliver, std::function<void(const std::string&)> warn)
    : max_deliver_(max_deliver), warn_(std::move(warn)) {}

std::string AttemptLedger::encode(int attempts) { return std::string(kPrefix) + std::to_string(attempts); }

int AttemptLedger::decode(const void* metadata, size_t size) {
  if (metadata == nullptr || size <= kPrefix.size() || size > kPrefix.size() + 9) return 0;
  const std::string_view text(static_cast<const char*>(metadata), size);
  if (text.substr(0, kPrefix.size()) != kPrefix) return 0;
  int n = 0;
  for (char c : text.substr(kPrefix.size())) {
    if (c < '0' || c > '9') return 0;
    n = n * 10 + (c - '0');
  }
  return n;
}

void AttemptLedger::assigned(rd_kafka_t* rk, const rd_kafka_topic_partition_list_t* partitions) {
  if (max_deliver_ <= 0) return;
  List committed(rd_kafka_topic_partition_list_copy(partitions));
  if (rd_kafka_resp_err_t e = rd_kafka_committed(rk, committed.get(), kTimeoutMs); e != RD_KAFKA_RESP_ERR_NO_ERROR)
    warn_(std::string("reading committed offsets (delivery counts not kept this time): ") + rd_kafka_err2str(e));
  for (int i = 0; i < committed->cnt; ++i) {
    const rd_kafka_topic_partition_t& tp = committed->elems[i];
    Entry entry;
    if (tp.err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      entry.committed = tp.offset;
      entry.attempts = tp.offset >= 0 ? decode(tp.metadata, tp.metadata_size) : 0;
    }
    if (entry.attempts > 0) {
      // A previous owner began at the committed offset and never got past it: the record that
      // stopped it is somewhere before what the partition held then.
      int64_t low = 0, high = 0;
      if (rd_kafka_query_watermark_offsets(rk, tp.topic, tp.partition, &low, &high, kTimeoutMs) == RD_KAFKA_RESP_ERR_NO_ERROR)
        entry.count_below = high;
      else
        entry.count_below = INT64_MAX;  // until a periodic commit moves on: counted one by one
    }
    entries_[{tp.topic, tp.partition}] = entry;
  }
}

void AttemptLedger::revoked(const rd_kafka_topic_partition_list_t* partitions) {
  for (int i = 0; i < partitions->cnt; ++i) entries_.erase({partitions->elems[i].topic, partitions->elems[i].partition});
}

AttemptLedger::Verdict AttemptLedger::begin(rd_kafka_t* rk, const Partition& p, int64_t offset, int* attempts) {
  auto it = entries_.find(p);
  if (it == entries_.end()) return Verdict::kUncounted;
  Entry& e = it->second;
  if (!e.first && offset >= e.count_below) return Verdict::kUncounted;
  e.first = false;
  *attempts = offset == e.committed ? e.attempts : 0;
  if (*attempts >= max_deliver_) return Verdict::kGiveUp;
  if (!commit(rk, p, offset, *attempts + 1)) return Verdict::kUncounted;
  e.committed = offset;
  e.attempts = *attempts + 1;
  return Verdict::kCounted;
}

void AttemptLedger::finished(rd_kafka_t* rk, const Partition& p, int64_t offset) {
  auto it = entries_.find(p);
  if (it == entries_.end() || !commit(rk, p, offset + 1, 0)) return;
  it->second.committed = offset + 1;
  it->second.attempts = 0;
}

void AttemptLedger::refused(rd_kafka_t* rk, const Partition& p, int64_t offset) {
  auto it = entries_.find(p);
  if (it == entries_.end() || !commit(rk, p, offset, 0)) return;
  it->second.attempts = 0;
}

bool AttemptLedger::commit(rd_kafka_t* rk, const Partition& p, int64_t offset, int attempts) {
  List l(rd_kafka_topic_partition_list_new(1));
  rd_kafka_topic_partition_t* tp = rd_kafka_topic_partition_list_add(l.get(), p.first.c_str(), p.second);
  tp->offset = offset;
  if (attempts > 0) {
    const std::string text = encode(attempts);
    tp->metadata = rd_kafka_mem_malloc(rk, text.size());  // freed with the list
    std::memcpy(tp->metadata, text.data(), text.size());
    tp->metadata_size = text.size();
  }
  // Synchronous: the count must be on the broker before the record is decoded.
  if (rd_kafka_resp_err_t e = rd_kafka_commit(rk, l.get(), 0); e != RD_KAFKA_RESP_ERR_NO_ERROR) {
    warn_(std::string("committing a delivery count (not kept this time): ") + rd_kafka_err2str(e));
    return false;
  }
  return true;
}

}  // namespace proflow::receivers::kafka
