// The shape both perf inputs end in (perf.h): events -> profiles, frames -> locations, samples ->
// rows of the flat batch. Internal to core/formats/perf.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/flat/flat_batch.h"
#include "core/flat/flat_merge.h"

namespace proflow::perf::internal {

// Where a sample was taken; attributes of its row.
struct SampleContext {
  int64_t pid = -1, tid = -1;
  int32_t cpu = -1;               // -1: not recorded
  std::string_view process_name;  // COMM of the process (its main thread)
  std::string_view thread_name;   // COMM of the thread
};

class ProfileBuilder {
 public:
  explicit ProfileBuilder(flat::Batch* out);

  // An event type (one profile of periods plus one of counts); `unit` of its period.
  uint32_t event(std::string_view name, std::string_view unit);
  // A mapping (file name, runtime range, file offset of its start, GNU build id as hex or "").
  int32_t mapping(std::string_view file, uint64_t start, uint64_t limit, uint64_t pgoff, std::string_view build_id);
  // A frame: `name` empty = not symbolized (the symbolize processor names it from address + mapping).
  int32_t location(uint64_t address, int32_t mapping, bool kernel, std::string_view name);
  // One sample of `event`, frames leaf first.
  void addSample(uint32_t event, const SampleContext& where, uint64_t time_unix_nano, int64_t period,
                 std::span<const int32_t> locations);

  void resourceAttribute(std::string_view key, std::string_view value);
  // An attribute of every profile finish() writes.
  void profileAttribute(std::string_view key, std::string_view value);
  void profileAttribute(std::string_view key, int64_t value);
  // Added to every sample time at finish (a clock anchor known only after reading everything).
  void shiftTimes(int64_t offset) { shift_ = offset; }
  // Writes the profiles (one resource, one scope). `lost`: samples the kernel dropped, as the
  // profile attribute perf.lost_samples when non-zero.
  void finish(std::string_view format, std::string_view original, uint64_t lost);

  uint64_t samples() const { return samples_; }
  size_t events() const { return events_.size(); }

 private:
  struct Event {
    int32_t type = 0, unit = 0;
    std::unordered_map<uint64_t, uint32_t> rows;  // (stack, attribute list) -> row
    std::vector<int32_t> row_stack;
    std::vector<uint32_t> row_attrs;  // index into attr_lists_
    std::vector<uint32_t> sample_row;
    std::vector<uint64_t> sample_time;
    std::vector<int64_t> sample_period;
  };
  uint32_t attributeList(const SampleContext& where);
  uint64_t shifted(uint64_t t) const;
  std::string_view text(std::string_view s);  // valid UTF-8 (valid until the next call)
  int32_t intAttribute(std::string_view key, int64_t value);
  void place(const Event& e, bool counts, std::vector<flat::Range>* row_stamps);

  flat::Batch& out_;
  flat::DictionaryIndex dict_;
  std::vector<Event> events_;
  int32_t frame_type_[2] = {};  // native, kernel
  std::unordered_map<std::string, int32_t> locations_;
  std::unordered_map<std::string, uint32_t> attr_list_index_;
  std::vector<flat::Range> attr_lists_;  // into attr_indices_
  std::vector<int32_t> attr_indices_;
  std::vector<int32_t> profile_attrs_;
  std::vector<std::pair<std::string, std::string>> resource_;
  std::string key_, utf8_;
  uint64_t samples_ = 0, first_time_ = UINT64_MAX, last_time_ = 0;
  uint32_t attrs_base_ = 0;
  int64_t shift_ = 0;  // where attr_indices_ starts in the batch's indices
};

}  // namespace proflow::perf::internal
