#include "core/status/flame_store.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <tuple>

#include "core/flat/flat_attributes.h"

namespace proflow::status {
namespace {

// What each entry is charged (heap and table overhead included, rounded up).
constexpr size_t kNameCost = 64;    // + 2 bytes per character (the string and its map key)
constexpr size_t kStackCost = 96;   // + 8 bytes per frame (the frames and their map key)
constexpr size_t kCellCost = 48;    // one (series, stack) value in one bucket
constexpr size_t kSeriesCost = 160;  // + 2 bytes per character
constexpr uint32_t kNone = UINT32_MAX;
constexpr uint32_t kUnknown = UINT32_MAX - 1;

size_t nameCost(std::string_view s) { return kNameCost + 2 * s.size(); }
size_t stackCost(size_t frames) { return kStackCost + 8 * frames; }

std::string stackKey(const std::vector<uint32_t>& frames) {
  std::string key(frames.size() * sizeof(uint32_t), '\0');
  if (!frames.empty()) std::memcpy(key.data(), frames.data(), key.size());
  return key;
}

// A location without line information: "<mapping file>+0x<offset>" or "0x<address>".
std::string addressName(const flat::Batch& b, const flat::Location& loc) {
  char buf[40];
  if (loc.mapping_index > 0 && static_cast<size_t>(loc.mapping_index) < b.mappings.size()) {
    const flat::Mapping& m = b.mappings[static_cast<size_t>(loc.mapping_index)];
    std::string_view file = b.string(m.filename_strindex);
    if (auto slash = file.rfind('/'); slash != std::string_view::npos) file.remove_prefix(slash + 1);
    if (!file.empty()) {
      std::snprintf(buf, sizeof buf, "+0x%llx",
                    static_cast<unsigned long long>(loc.address - m.memory_start + m.file_offset));
      return std::string(file) + buf;
    }
  }
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(loc.address));
  return buf;
}

std::string_view functionName(const flat::Batch& b, int32_t index) {
  if (index <= 0 || static_cast<size_t>(index) >= b.functions.size()) return "?";
  const flat::Function& f = b.functions[static_cast<size_t>(index)];
  std::string_view name = b.string(f.name_strindex);
  if (name.empty()) name = b.string(f.system_name_strindex);
  return name.empty() ? std::string_view("?") : name;
}

// A sample's value: the sum of its values; one per timestamp (or 1) when it has none.
int64_t sampleValue(const flat::Batch& b, size_t row) {
  const flat::Range v = b.samples.values[row];
  if (v.size == 0) return std::max<int64_t>(1, b.samples.timestamps[row].size);
  int64_t sum = 0;
  if (v.end() > b.values.size()) return 0;
  for (int64_t x : flat::Batch::slice(b.values, v)) sum += x;
  return sum;
}

std::string sampleType(const flat::Batch& b, const flat::Profile& p) {
  std::string type(p.sample_type.present ? b.string(p.sample_type.type_strindex) : "");
  std::string unit(p.sample_type.present ? b.string(p.sample_type.unit_strindex) : "");
  return (type.empty() ? "samples" : type) + "/" + (unit.empty() ? "count" : unit);
}

}  // namespace

FlameStore::FlameStore(Options options, Clock::time_point start)
    : options_(options), start_(start), buckets_(std::max<size_t>(1, options.buckets)) {
  if (options_.bucket.count() <= 0) options_.bucket = std::chrono::seconds(1);
}

int64_t FlameStore::epochOf(Clock::time_point t) const {
  if (t < start_) return 0;
  return std::chrono::duration_cast<std::chrono::seconds>(t - start_).count() / options_.bucket.count();
}

bool FlameStore::charge(size_t bytes) {
  if (memory_ + bytes > options_.max_bytes) return false;
  memory_ += bytes;
  return true;
}

FlameStore::Bucket& FlameStore::bucketFor(int64_t epoch) {
  Bucket& b = buckets_[static_cast<size_t>(epoch) % buckets_.size()];
  if (b.epoch < epoch) {
    expire(b);
    b.epoch = epoch;
  }
  return b;
}

void FlameStore::expire(Bucket& b) {
  if (b.epoch >= 0) {
    memory_ -= std::min(memory_, (b.values.size() + b.samples.size()) * kCellCost);
    expired_ = true;
  }
  for (const auto& [id, cell] : b.samples) {
    auto it = series_.find(id);
    if (it == series_.end()) continue;
    it->second.retained.samples -= cell.samples;
    it->second.retained.value -= cell.value;
  }
  b.values.clear();
  b.samples.clear();
  b.epoch = -1;
}

bool FlameStore::live(const Series& s, Clock::time_point now) const {
  return s.last_epoch > epochOf(now) - static_cast<int64_t>(buckets_.size());
}

uint32_t FlameStore::seriesId(std::string_view service, std::string_view type, int64_t epoch) {
  auto key = std::make_pair(std::string(service), std::string(type));
  auto it = series_ids_.find(key);
  if (it == series_ids_.end()) {
    if (!charge(kSeriesCost + 2 * (service.size() + type.size()))) return kNone;
    const uint32_t id = next_series_++;
    series_[id] = Series{key.first, key.second, epoch};
    it = series_ids_.emplace(std::move(key), id).first;
  }
  Series& s = series_[it->second];
  s.last_epoch = std::max(s.last_epoch, epoch);
  return it->second;
}

uint32_t FlameStore::nameId(std::string_view name) {
  std::string key(name);
  if (auto it = name_ids_.find(key); it != name_ids_.end()) return it->second;
  if (!charge(nameCost(name))) return kNone;
  const auto id = static_cast<uint32_t>(names_.size());
  names_.push_back(key);
  name_ids_.emplace(std::move(key), id);
  return id;
}

uint32_t FlameStore::stackId(const std::vector<uint32_t>& frames) {
  std::string key = stackKey(frames);
  if (auto it = stack_ids_.find(key); it != stack_ids_.end()) return it->second;
  if (!charge(stackCost(frames.size()))) return kNone;
  const auto id = static_cast<uint32_t>(stacks_.size());
  stacks_.push_back({frames});
  stack_ids_.emplace(std::move(key), id);
  return id;
}

void FlameStore::add(const flat::Batch& b, Clock::time_point at) {
  advance(at);
  const int64_t epoch = epochOf(at);
  Bucket& bucket = buckets_[static_cast<size_t>(epoch) % buckets_.size()];
  if (bucket.epoch > epoch) return;  // older than the retention: nothing to add it to
  bucketFor(epoch);
  // Per batch: its dictionary's stacks and functions resolved once.
  std::vector<uint32_t> stack_memo(b.stacks.size(), kUnknown), function_memo(b.functions.size(), kUnknown);
  std::vector<uint32_t> frames;
  auto frame = [&](uint32_t id) {
    if (id == kNone) return false;
    frames.push_back(id);
    return true;
  };
  auto resolveStack = [&](int32_t si) -> uint32_t {
    if (si < 0 || static_cast<size_t>(si) >= b.stacks.size()) si = 0;
    uint32_t& memo = stack_memo[static_cast<size_t>(si)];
    if (memo != kUnknown) return memo;
    frames.clear();
    const flat::Range locs = b.stacks[static_cast<size_t>(si)].locations;
    bool ok = locs.end() <= b.indices.size();
    for (uint32_t k = locs.end(); ok && k-- > locs.begin;) {  // leaf first on the wire: root first here
      const int32_t li = b.indices[k];
      if (li <= 0 || static_cast<size_t>(li) >= b.locations.size()) {
        ok = frame(nameId("?"));
        continue;
      }
      const flat::Location& loc = b.locations[static_cast<size_t>(li)];
      if (loc.lines.size == 0 || loc.lines.end() > b.lines.size()) {
        ok = frame(nameId(addressName(b, loc)));
        continue;
      }
      for (uint32_t l = loc.lines.end(); ok && l-- > loc.lines.begin;) {  // the caller of inlined frames is last
        const int32_t fi = b.lines[l].function_index;
        uint32_t* fm = fi > 0 && static_cast<size_t>(fi) < function_memo.size() ? &function_memo[static_cast<size_t>(fi)] : nullptr;
        uint32_t id = fm && *fm != kUnknown ? *fm : nameId(functionName(b, fi));
        if (fm) *fm = id;
        ok = frame(id);
      }
    }
    memo = ok ? stackId(frames) : kNone;
    return memo;
  };

  for (const flat::Resource& r : b.resources) {
    const std::string service = flat::resourceAttribute(b, r, "service.name").value_or("unknown_service");
    b.forEachScope(r, [&](uint32_t s) {
      const flat::Range profiles = b.scopes[s].profiles;
      for (uint32_t p = profiles.begin; p < profiles.end() && p < b.profiles.size(); ++p) {
        const flat::Profile& prof = b.profiles[p];
        const uint32_t end = std::min<uint32_t>(prof.samples.end(), static_cast<uint32_t>(b.samples.size()));
        const uint32_t series = seriesId(service, sampleType(b, prof), epoch);
        if (series == kNone) {
          dropped_samples_ += end > prof.samples.begin ? end - prof.samples.begin : 0;
          continue;
        }
        if (!bucket.samples.count(series)) {
          if (!charge(kCellCost)) {
            dropped_samples_ += end > prof.samples.begin ? end - prof.samples.begin : 0;
            continue;
          }
          bucket.samples[series] = Totals{};
        }
        Totals& in_bucket = bucket.samples[series];
        Totals& retained = series_[series].retained;
        for (uint32_t row = prof.samples.begin; row < end; ++row) {
          const uint32_t stack = resolveStack(b.samples.stack_index[row]);
          if (stack == kNone) {
            ++dropped_samples_;
            continue;
          }
          const uint64_t key = (static_cast<uint64_t>(series) << 32) | stack;
          auto it = bucket.values.find(key);
          if (it == bucket.values.end()) {
            if (!charge(kCellCost)) {
              ++dropped_samples_;
              continue;
            }
            it = bucket.values.emplace(key, 0).first;
          }
          const int64_t value = sampleValue(b, row);
          it->second += value;
          in_bucket.value += value;
          ++in_bucket.samples;
          retained.value += value;
          ++retained.samples;
        }
      }
    });
  }
}

bool FlameStore::advance(Clock::time_point now) {
  const int64_t oldest = epochOf(now) - static_cast<int64_t>(buckets_.size()) + 1;
  for (Bucket& b : buckets_)
    if (b.epoch >= 0 && b.epoch < oldest) expire(b);
  if (!expired_) return false;
  compact();
  return true;
}

// Keeps only the stacks, names and series the remaining buckets reference, renumbered, and
// recomputes the memory charged from what is left.
void FlameStore::compact() {
  expired_ = false;
  std::vector<uint32_t> stack_map(stacks_.size(), kNone), name_map(names_.size(), kNone);
  std::vector<Stack> stacks;
  std::vector<std::string> names;
  std::unordered_map<uint32_t, bool> live_series;
  size_t memory = 0;
  for (Bucket& b : buckets_) {
    if (b.epoch < 0) continue;
    std::unordered_map<uint64_t, int64_t> values;
    values.reserve(b.values.size());
    for (const auto& [key, v] : b.values) {
      const auto old = static_cast<uint32_t>(key & 0xffffffffu);
      if (stack_map[old] == kNone) {
        Stack s = std::move(stacks_[old]);
        for (uint32_t& f : s.frames) {
          if (name_map[f] == kNone) {
            name_map[f] = static_cast<uint32_t>(names.size());
            memory += nameCost(names_[f]);
            names.push_back(std::move(names_[f]));
          }
          f = name_map[f];
        }
        memory += stackCost(s.frames.size());
        stack_map[old] = static_cast<uint32_t>(stacks.size());
        stacks.push_back(std::move(s));
      }
      values.emplace((key & ~uint64_t{0xffffffffu}) | stack_map[old], v);
      live_series[static_cast<uint32_t>(key >> 32)] = true;
    }
    for (const auto& [series, n] : b.samples) live_series[series] = true;
    b.values = std::move(values);
    memory += (b.values.size() + b.samples.size()) * kCellCost;
  }
  stacks_ = std::move(stacks);
  names_ = std::move(names);
  name_ids_.clear();
  for (uint32_t i = 0; i < names_.size(); ++i) name_ids_.emplace(names_[i], i);
  stack_ids_.clear();
  for (uint32_t i = 0; i < stacks_.size(); ++i) stack_ids_.emplace(stackKey(stacks_[i].frames), i);
  for (auto it = series_ids_.begin(); it != series_ids_.end();) {
    if (live_series.count(it->second)) {
      memory += kSeriesCost + 2 * (it->first.first.size() + it->first.second.size());
      ++it;
    } else {
      series_.erase(it->second);
      it = series_ids_.erase(it);
    }
  }
  memory_ = memory;
}

double FlameStore::sum(uint32_t id, std::chrono::seconds window, int64_t now_epoch, Clock::time_point now,
                       std::unordered_map<uint32_t, int64_t>* out, uint64_t* samples) const {
  const int64_t width = options_.bucket.count();
  const int64_t n = std::clamp<int64_t>((window.count() + width - 1) / width, 1, static_cast<int64_t>(buckets_.size()));
  for (const Bucket& b : buckets_) {
    if (b.epoch < 0 || b.epoch <= now_epoch - n || b.epoch > now_epoch) continue;
    for (const auto& [key, v] : b.values)
      if (static_cast<uint32_t>(key >> 32) == id) (*out)[static_cast<uint32_t>(key & 0xffffffffu)] += v;
    if (auto it = b.samples.find(id); it != b.samples.end()) *samples += it->second.samples;
  }
  const double since_start = std::chrono::duration<double>(now - start_).count();
  const double in_current = since_start - static_cast<double>(now_epoch * width);
  return std::max(0.0, std::min(since_start, static_cast<double>((n - 1) * width) + in_current));
}

std::vector<SeriesInfo> FlameStore::series(Clock::time_point now, size_t limit) const {
  std::vector<const Series*> held;
  held.reserve(series_.size());
  for (const auto& [id, s] : series_)
    if (live(s, now)) held.push_back(&s);
  auto by_name = [](const Series* a, const Series* b) { return std::tie(a->service, a->type) < std::tie(b->service, b->type); };
  if (held.size() > limit) {  // the most sampled `limit`, ties by name
    std::nth_element(held.begin(), held.begin() + static_cast<ptrdiff_t>(limit), held.end(),
                     [&](const Series* a, const Series* b) {
                       return a->retained.samples != b->retained.samples ? a->retained.samples > b->retained.samples
                                                                         : by_name(a, b);
                     });
    held.resize(limit);
  }
  std::sort(held.begin(), held.end(), by_name);
  std::vector<SeriesInfo> out;
  out.reserve(held.size());
  for (const Series* s : held) out.push_back({s->service, s->type, s->retained.samples, s->retained.value});
  return out;
}

size_t FlameStore::seriesCount(Clock::time_point now) const {
  return static_cast<size_t>(std::count_if(series_.begin(), series_.end(), [&](const auto& s) { return live(s.second, now); }));
}

bool FlameStore::tree(const std::string& service, const std::string& type, std::chrono::seconds window,
                      std::chrono::seconds base, Clock::time_point now, FlameTree* out) const {
  auto it = series_ids_.find({service, type});
  if (it == series_ids_.end() || !live(series_.at(it->second), now)) return false;
  const int64_t now_epoch = epochOf(now);
  out->service = service;
  out->type = type;
  std::unordered_map<uint32_t, int64_t> current, previous;
  out->seconds = sum(it->second, window, now_epoch, now, &current, &out->samples);
  double scale = 0;
  if (base.count() > 0) {
    uint64_t ignored = 0;
    out->has_base = true;
    out->base_seconds = sum(it->second, base, now_epoch, now, &previous, &ignored);
    scale = out->base_seconds > 0 ? out->seconds / out->base_seconds : 0;
  }
  std::unordered_map<uint64_t, uint32_t> children;  // (node << 32 | name) -> node
  auto walk = [&](uint32_t stack, int64_t value, double based) {
    uint32_t node = 0;
    out->nodes[0].value += value;
    out->nodes[0].base += based;
    for (uint32_t name : stacks_[stack].frames) {
      const uint64_t key = (static_cast<uint64_t>(node) << 32) | name;
      auto [c, added] = children.emplace(key, static_cast<uint32_t>(out->nodes.size()));
      if (added) {
        out->nodes.push_back({names_[name], 0, 0, node, {}});
        out->nodes[node].children.push_back(c->second);
      }
      node = c->second;
      out->nodes[node].value += value;
      out->nodes[node].base += based;
    }
  };
  for (const auto& [stack, v] : current) walk(stack, v, 0);
  for (const auto& [stack, v] : previous) walk(stack, 0, static_cast<double>(v) * scale);
  for (FlameNode& n : out->nodes)
    std::sort(n.children.begin(), n.children.end(),
              [&](uint32_t a, uint32_t b) { return out->nodes[a].name < out->nodes[b].name; });
  return true;
}

}  // namespace proflow::status
