#include "core/formats/folded/folded.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

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

std::string_view trimLine(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

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
  *stack = trimLine(line.substr(0, space));
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
    const std::string_view line = trimLine(text.substr(0, eol));
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

}  // namespace proflow::folded
