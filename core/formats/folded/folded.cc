#include "core/formats/folded/folded.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/formats/pprof/pprof_to_flat.h"
#include "core/util/ascii.h"

namespace proflow::folded {
namespace {

// Interns frames as pprof functions + locations (one location per distinct frame name).
class FoldedBuilder {
 public:
  FoldedBuilder(pprof::Profile* p, const pprof::ProfileLimits& limits) : p_(p), limits_(limits) {
    p_->add_string_table("");
  }

  int64_t str(std::string_view s) {
    auto [it, added] = strings_.try_emplace(std::string(s), p_->string_table_size());
    if (added) p_->add_string_table(std::string(s));
    return it->second;
  }

  uint64_t location(std::string_view frame) {
    auto it = locations_.find(std::string(frame));
    if (it != locations_.end()) return it->second;
    const uint64_t id = static_cast<uint64_t>(p_->location_size()) + 1;
    auto* f = p_->add_function();
    f->set_id(id);
    f->set_name(str(frame));
    f->set_system_name(f->name());
    auto* l = p_->add_location();
    l->set_id(id);
    l->add_line()->set_function_id(id);
    locations_.emplace(std::string(frame), id);
    return id;
  }

  // Adds `value` to the sample of this stack (frames root first). Limits are checked before a new
  // sample or frame is allocated.
  Status add(std::string_view stack, int64_t value, size_t line) {
    auto it = samples_.find(std::string(stack));
    if (it != samples_.end()) {
      auto* s = p_->mutable_sample(it->second);
      const int64_t v = s->value(0);
      s->set_value(0, v > std::numeric_limits<int64_t>::max() - value ? std::numeric_limits<int64_t>::max() : v + value);
      return Status::ok();
    }
    const std::string where = "folded line " + std::to_string(line) + ": ";
    if (static_cast<uint64_t>(p_->sample_size()) >= limits_.max_samples)
      return Status::tooLarge(where + "more distinct stacks than max_samples " + std::to_string(limits_.max_samples));
    std::vector<uint64_t> ids;
    size_t start = 0;
    while (true) {
      const size_t semi = stack.find(';', start);
      const std::string_view frame = stack.substr(start, semi - start);
      if (ids.size() >= limits_.max_stack_depth)
        return Status::tooLarge(where + "stack deeper than max_stack_depth " + std::to_string(limits_.max_stack_depth));
      if (frame.size() > limits_.max_string_length)
        return Status::tooLarge(where + "frame of " + std::to_string(frame.size()) + " bytes exceeds max_string_length " +
                                std::to_string(limits_.max_string_length));
      ids.push_back(location(frame));
      if (semi == std::string_view::npos) break;
      start = semi + 1;
    }
    auto* s = p_->add_sample();
    for (auto i = ids.rbegin(); i != ids.rend(); ++i) s->add_location_id(*i);  // pprof: leaf first
    s->add_value(value);
    samples_.emplace(std::string(stack), p_->sample_size() - 1);
    return Status::ok();
  }

 private:
  pprof::Profile* p_;
  const pprof::ProfileLimits& limits_;
  std::unordered_map<std::string, int64_t> strings_;
  std::unordered_map<std::string, uint64_t> locations_;
  std::unordered_map<std::string, int> samples_;
};

Status parseLine(std::string_view line, const FoldedOptions& in, size_t number, std::string_view* stack, int64_t* value) {
  if (in.lines_format) {
    *stack = line;
    *value = 1;
    return Status::ok();
  }
  const size_t space = line.find_last_of(" \t");
  const Status bad = Status::invalid("folded line " + std::to_string(number) +
                                     ": expected 'frame;frame;... <count>' with a non-negative integer count");
  if (space == std::string_view::npos) return bad;
  const std::string_view num = line.substr(space + 1);
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(num.data(), num.data() + num.size(), v);
  if (ec != std::errc() || p != num.data() + num.size() || v > uint64_t(std::numeric_limits<int64_t>::max()))
    return bad;
  *stack = trim(line.substr(0, space));
  if (stack->empty()) return bad;
  *value = static_cast<int64_t>(v);
  return Status::ok();
}

}  // namespace

Status foldedToPprof(std::string_view text, const FoldedOptions& in, pprof::Profile* out) {
  out->Clear();
  FoldedBuilder b(out, in.limits);
  auto* st = out->add_sample_type();
  st->set_type(b.str(in.sample_type));
  st->set_unit(b.str(in.sample_unit));
  if (!in.period_type.empty() || !in.period_unit.empty()) {
    out->mutable_period_type()->set_type(b.str(in.period_type));
    out->mutable_period_type()->set_unit(b.str(in.period_unit));
  }
  out->set_period(in.period);
  out->set_time_nanos(in.time_ns);
  out->set_duration_nanos(in.duration_ns);
  const int64_t period = std::max<int64_t>(1, in.period);
  size_t number = 0;
  while (!text.empty()) {
    const size_t eol = text.find('\n');
    const std::string_view line = trim(text.substr(0, eol));
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    ++number;
    if (line.empty()) continue;
    std::string_view stack;
    int64_t value = 0;
    if (Status s = parseLine(line, in, number, &stack, &value); !s.isOk()) return s;
    if (in.scale_by_period)
      value = value > std::numeric_limits<int64_t>::max() / period ? std::numeric_limits<int64_t>::max() : value * period;
    if (Status s = b.add(stack, value, number); !s.isOk()) return s;
  }
  return Status::ok();
}

namespace {

// Counts distinct frame names (and their bytes) in a fixed table of 64-bit hashes: at most
// kMaxSlots x 8 bytes, allocated before anything is claimed, so it stays small. When the table would
// pass half full, counting stops and every frame is taken as distinct (still a bound).
class DistinctFrames {
 public:
  explicit DistinctFrames(size_t frames) {
    size_t slots = 1024;
    while (slots < 2 * frames && slots < kMaxSlots) slots *= 2;
    table_.assign(slots, 0);
  }
  void add(std::string_view frame) {
    if (overflow_) return;
    uint64_t h = std::hash<std::string_view>()(frame) | 1;  // 0 marks an empty slot
    const size_t mask = table_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      if (table_[i] == h) return;
      if (table_[i] == 0) {
        table_[i] = h;
        ++count_;
        bytes_ += frame.size();
        overflow_ = 2 * count_ > table_.size();
        return;
      }
    }
  }
  bool overflow() const { return overflow_; }
  size_t count() const { return count_; }
  size_t bytes() const { return bytes_; }

 private:
  static constexpr size_t kMaxSlots = size_t{1} << 20;  // 8 MiB
  std::vector<uint64_t> table_;
  size_t count_ = 0, bytes_ = 0;
  bool overflow_ = false;
};

template <class F>
void forEachFrame(std::string_view text, F&& f) {
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == ';' || text[i] == '\n') {
      f(text.substr(start, i - start), i == text.size() || text[i] == '\n');
      start = i + 1;
    }
}

}  // namespace

size_t estimateFoldedBytes(std::string_view text) {
  size_t lines = 0, frames = 0;
  forEachFrame(text, [&](std::string_view, bool line_end) {
    ++frames;
    if (line_end) ++lines;
  });
  DistinctFrames distinct(frames);
  forEachFrame(text, [&](std::string_view frame, bool line_end) {
    // The count ends the last frame of a line: not a name, and it only errs high to count it.
    (void)line_end;
    distinct.add(frame);
  });
  const size_t names = distinct.overflow() ? frames : distinct.count();
  const size_t name_bytes = distinct.overflow() ? text.size() : distinct.bytes();
  // Per line (a distinct stack at most): its key in the stack map (node + string header; the text
  // itself is counted below) and the pprof Sample with its value. 256 bytes.
  // Per frame of a line: a location id in the Sample, 8 bytes doubled for repeated-field growth.
  // Per distinct name: a Function, a Location with its Line, a string-table entry, entries in the
  // string and location maps (nodes, string headers, bucket slots) and the message pointers: about
  // 450 bytes, plus the name stored three times (string table and both map keys).
  // The stack keys copy at most the whole text once. 64 KiB: first buckets and blocks of the maps
  // and this estimate's own table.
  return lines * 256 + frames * 16 + names * 448 + 3 * name_bytes + text.size() + (64u << 10);
}

Status foldedToFlat(std::string_view text, const FoldedOptions& options, const pprof::PprofToOtlpOptions& convert,
                    size_t held_bytes, const std::function<Status(size_t bytes)>& reserve, flat::Batch* out) {
  if (reserve)
    if (Status s = reserve(held_bytes + estimateFoldedBytes(text)); !s.isOk()) return s;
  pprof::Profile profile;
  if (Status s = foldedToPprof(text, options, &profile); !s.isOk()) return s;
  pprof::PprofToOtlpOptions with_reserve = convert;
  if (reserve) {
    // The parser's maps are gone: the claim shrinks to the profile (its message sizes plus a quarter
    // for the allocator's rounding; the conversion also holds its serialization, smaller than that),
    // then grows by the conversion.
    const size_t profile_bytes = profile.SpaceUsedLong() / 4 * 5;
    // By value: profile_bytes ends with this block, and the callback runs after it.
    with_reserve.reserve_memory = [&reserve, held = held_bytes + profile_bytes](size_t conversion) {
      return reserve(held + conversion);
    };
  }
  return pprof::pprofToFlat(profile, with_reserve, out);
}

}  // namespace proflow::folded
