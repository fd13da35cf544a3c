#include "processors/profilemetrics/profile_digest.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/flat/flat_attributes.h"
#include "processors/profilemetrics/metric_naming.h"

namespace proflow::processors::profilemetrics {
namespace {

constexpr std::string_view kServiceKey = "service.name";
constexpr std::string_view kUnknownService = "unknown_service";
constexpr size_t kMaxTypeBytes = 64;  // sample type and unit words (names cut them there too)
constexpr size_t kTraceIdBytes = 16, kSpanIdBytes = 8, kProfileIdBytes = 16;

std::string basename(std::string_view path) {
  size_t slash = path.find_last_of('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

// The heaviest linked sample seen for one function (row of the batch's sample columns).
struct Best {
  int64_t value = -1;
  uint32_t row = 0;
  void offer(int64_t v, uint32_t r) {
    if (v > value) value = v, row = r;
  }
};

// Walks the samples of one batch, profile by profile, into a Digest.
class Walker {
 public:
  Walker(const flat::Batch& b, const DigestOptions& o, Digest& d)
      : b_(b), o_(o), d_(d), functions_(b.functions.size()), slots_(functions_ + b.mappings.size() + 1) {
    if (!o_.functions) return;
    canon_.assign(slots_, -1);
    names_.resize(slots_);
    self_.assign(slots_, 0);
    incl_.assign(slots_, 0);
    dedupe_stamp_.assign(slots_, 0);
    profile_stamp_.assign(slots_, 0);
    stack_memo_.resize(b_.stacks.size());
    best_self_.resize(slots_);
    best_incl_.resize(slots_);
  }

  void run() {
    for (const auto& r : b_.resources) {
      bool cut = false;
      std::string service =
          capLabelValue(flat::resourceAttribute(b_, r, kServiceKey).value_or(std::string(kUnknownService)),
                        o_.max_label_length, &cut);
      d_.truncated_labels += cut;
      b_.forEachScope(r, [&](uint32_t s) {
        const flat::Range profiles = b_.scopes[s].profiles;
        for (uint32_t p = profiles.begin; p < profiles.end() && p < b_.profiles.size(); ++p)
          addProfile(b_.profiles[p], service);
      });
    }
  }

 private:
  KeyDigest& keyFor(const std::string& service, const flat::Profile& p) {
    std::string type(b_.string(p.sample_type.type_strindex).substr(0, kMaxTypeBytes));
    std::string unit(b_.string(p.sample_type.unit_strindex).substr(0, kMaxTypeBytes));
    auto [it, added] = keys_.try_emplace(std::make_tuple(service, type, unit), d_.keys.size());
    if (added) {
      KeyDigest& k = d_.keys.emplace_back();
      k.service = service;
      k.type = std::move(type);
      k.unit = std::move(unit);
    }
    return d_.keys[it->second];
  }

  int64_t valueOf(uint32_t row) const {
    const flat::Range vr = b_.samples.values[row];
    if (vr.size == 0) return b_.samples.timestamps[row].size;  // each timestamp counts 1
    int64_t v = 0;
    for (int64_t x : flat::Batch::slice(b_.values, vr)) {
      if (x < 0) return -1;  // left out
      v = saturatingAdd(v, x);
    }
    return v;
  }

  bool linked(uint32_t row) const {
    int32_t li = b_.samples.link_index[row];
    if (li <= 0 || static_cast<size_t>(li) >= b_.links.size()) return false;
    const flat::Link& l = b_.links[static_cast<size_t>(li)];
    if (l.trace_id.size != kTraceIdBytes || (l.span_id.size != kSpanIdBytes && l.span_id.size != 0)) return false;
    const std::string_view trace = b_.view(l.trace_id);
    return std::any_of(trace.begin(), trace.end(), [](char c) { return c != 0; });  // all zero: no trace
  }

  ExemplarCandidate exemplar(const flat::Profile& p, uint32_t row, int64_t value) const {
    ExemplarCandidate c;
    const flat::Link& l = b_.links[static_cast<size_t>(b_.samples.link_index[row])];
    c.trace_id = idHex(b_.view(l.trace_id));
    c.span_id = idHex(b_.view(l.span_id));
    if (p.profile_id.size == kProfileIdBytes) c.profile_id = idHex(b_.view(p.profile_id));
    c.value = value;
    const flat::Range tr = b_.samples.timestamps[row];
    uint64_t ns = tr.size ? b_.timestamps[tr.begin] : p.time_unix_nano;
    if (ns != 0) c.timestamp = static_cast<double>(ns) / 1e9;
    return c;
  }

  // The slot that counts frames of this name (slots of one name share the first one).
  int32_t canonical(size_t slot) {
    if (canon_[slot] >= 0) return canon_[slot];
    std::string raw = slot < functions_ ? frameName(b_, static_cast<int32_t>(slot))
                                        : unsymbolizedName(b_, static_cast<int32_t>(slot - functions_));
    bool cut = false;
    std::string name = capLabelValue(raw, o_.max_label_length, &cut);
    auto [it, added] = by_name_.try_emplace(name, static_cast<int32_t>(slot));
    if (added) {
      d_.truncated_labels += cut;
      names_[slot] = std::move(name);
    }
    return canon_[slot] = it->second;
  }

  // The frames of a stack as canonical slots: the innermost one, and each distinct one once (a
  // recursive function counts once per sample). Computed once per stack of the batch.
  struct StackFrames {
    bool done = false;
    int32_t leaf = -1;
    uint32_t begin = 0, size = 0;  // in pool_
  };

  const StackFrames& framesOf(size_t si) {
    StackFrames& m = stack_memo_[si];
    if (m.done) return m;
    m.done = true;
    m.begin = static_cast<uint32_t>(pool_.size());
    ++dedupe_seq_;
    auto add = [&](size_t slot) {
      const int32_t c = canonical(slot);
      if (m.leaf < 0) m.leaf = c;
      if (dedupe_stamp_[static_cast<size_t>(c)] == dedupe_seq_) return;
      dedupe_stamp_[static_cast<size_t>(c)] = dedupe_seq_;
      pool_.push_back(c);
    };
    for (int32_t li : b_.indexList(b_.stacks[si].locations)) {
      if (li < 0 || static_cast<size_t>(li) >= b_.locations.size()) continue;
      const flat::Location& loc = b_.locations[static_cast<size_t>(li)];
      if (loc.lines.size == 0) {
        const bool known = loc.mapping_index > 0 && static_cast<size_t>(loc.mapping_index) < b_.mappings.size();
        add(functions_ + (known ? static_cast<size_t>(loc.mapping_index) : 0));
        continue;
      }
      // Inlined functions first (innermost), the function they were inlined into last.
      for (const flat::Line& line : flat::Batch::slice(b_.lines, loc.lines)) {
        const bool known = line.function_index >= 0 && static_cast<size_t>(line.function_index) < functions_;
        add(known ? static_cast<size_t>(line.function_index) : 0);
      }
    }
    m.size = static_cast<uint32_t>(pool_.size()) - m.begin;
    return m;
  }

  void touch(size_t c) {
    if (profile_stamp_[c] == profile_seq_) return;
    profile_stamp_[c] = profile_seq_;
    touched_.push_back(c);
  }

  void walkStack(uint32_t row, int64_t v, bool is_linked) {
    const int32_t si = b_.samples.stack_index[row];
    if (si < 0 || static_cast<size_t>(si) >= b_.stacks.size()) return;
    const StackFrames& m = framesOf(static_cast<size_t>(si));
    if (m.leaf >= 0) {
      const auto c = static_cast<size_t>(m.leaf);
      touch(c);
      self_[c] = saturatingAdd(self_[c], v);
      if (is_linked) best_self_[c].offer(v, row);
    }
    for (uint32_t i = m.begin; i < m.begin + m.size; ++i) {
      const auto c = static_cast<size_t>(pool_[i]);
      touch(c);
      incl_[c] = saturatingAdd(incl_[c], v);
      if (is_linked) best_incl_[c].offer(v, row);
    }
  }

  void addProfile(const flat::Profile& p, const std::string& service) {
    KeyDigest& key = keyFor(service, p);
    Best best_total;
    ++profile_seq_;
    touched_.clear();
    const size_t rows = b_.samples.size();
    for (uint32_t row = p.samples.begin; row < p.samples.end() && row < rows; ++row) {
      const int64_t v = valueOf(row);
      if (v < 0) continue;
      key.total = saturatingAdd(key.total, v);
      ++key.samples;
      const bool is_linked = linked(row);
      if (is_linked) best_total.offer(v, row);
      if (o_.functions) walkStack(row, v, is_linked);
    }
    if (best_total.value >= 0) offer(key.exemplar, exemplar(p, best_total.row, best_total.value));
    for (size_t c : touched_) {
      FunctionDigest& f = key.functions[names_[c]];
      f.self = saturatingAdd(f.self, self_[c]);
      f.inclusive = saturatingAdd(f.inclusive, incl_[c]);
      if (best_self_[c].value >= 0) offer(f.self_exemplar, exemplar(p, best_self_[c].row, best_self_[c].value));
      if (best_incl_[c].value >= 0)
        offer(f.inclusive_exemplar, exemplar(p, best_incl_[c].row, best_incl_[c].value));
      self_[c] = incl_[c] = 0;
      best_self_[c] = best_incl_[c] = Best{};
    }
  }

  static void offer(ExemplarCandidate& slot, ExemplarCandidate c) {
    if (!slot.valid() || c.value > slot.value) slot = std::move(c);
  }

  const flat::Batch& b_;
  const DigestOptions& o_;
  Digest& d_;
  const size_t functions_, slots_;
  std::map<std::tuple<std::string, std::string, std::string>, size_t> keys_;
  std::vector<int32_t> canon_;
  std::vector<std::string> names_;  // of canonical slots
  std::unordered_map<std::string, int32_t> by_name_;
  std::vector<int64_t> self_, incl_;
  std::vector<uint32_t> dedupe_stamp_, profile_stamp_;
  uint32_t dedupe_seq_ = 0, profile_seq_ = 0;
  std::vector<StackFrames> stack_memo_;  // by stack index
  std::vector<int32_t> pool_;
  std::vector<Best> best_self_, best_incl_;
  std::vector<size_t> touched_;
};

}  // namespace

std::string frameName(const flat::Batch& batch, int32_t function_index) {
  if (function_index <= 0 || static_cast<size_t>(function_index) >= batch.functions.size()) return "[unknown]";
  const flat::Function& f = batch.functions[static_cast<size_t>(function_index)];
  std::string_view name = batch.string(f.name_strindex);
  if (name.empty()) name = batch.string(f.system_name_strindex);
  return name.empty() ? "[unknown]" : std::string(name);
}

std::string unsymbolizedName(const flat::Batch& batch, int32_t mapping_index) {
  std::string file;
  if (mapping_index > 0 && static_cast<size_t>(mapping_index) < batch.mappings.size())
    file = basename(batch.string(batch.mappings[static_cast<size_t>(mapping_index)].filename_strindex));
  return file.empty() ? "[unsymbolized]" : "[unsymbolized " + file + "]";
}

Digest digestBatch(const flat::Batch& batch, const DigestOptions& options) {
  Digest d;
  Walker(batch, options, d).run();
  return d;
}

}  // namespace proflow::processors::profilemetrics
