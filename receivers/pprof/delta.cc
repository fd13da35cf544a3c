#include "receivers/pprof/delta.h"

#include <algorithm>
#include <cstring>
#include <tuple>
#include <unordered_set>

namespace proflow::receivers::pprof {
namespace {

using ::proflow::pprof::Profile;
using perftools::profiles::Sample;

// Builds the identity of a sample that survives re-capture: addresses (or function names and
// lines) instead of location ids, and labels in a canonical order.
class KeyBuilder {
 public:
  explicit KeyBuilder(const Profile& p) : p_(p) {
    locations_.reserve(p.location_size());
    for (const auto& l : p.location()) locations_.emplace(l.id(), &l);
    functions_.reserve(p.function_size());
    for (const auto& f : p.function()) functions_.emplace(f.id(), &f);
  }

  std::string key(const Sample& s) const {
    std::string k;
    k.reserve(s.location_id_size() * 9 + 16);
    for (uint64_t id : s.location_id()) appendLocation(k, id);
    k += '|';
    appendLabels(k, s);
    return k;
  }

 private:
  std::string_view str(int64_t i) const {
    return i >= 0 && i < p_.string_table_size() ? std::string_view(p_.string_table(i)) : std::string_view();
  }

  static void appendU64(std::string& k, uint64_t v) {
    char b[8];
    std::memcpy(b, &v, 8);
    k.append(b, 8);
  }

  void appendLocation(std::string& k, uint64_t id) const {
    auto it = locations_.find(id);
    if (it == locations_.end()) {  // not from decodeProfile (validated); still deterministic
      k += 'X';
      appendU64(k, id);
      return;
    }
    const auto& loc = *it->second;
    if (loc.address() != 0) {
      k += 'A';
      appendU64(k, loc.address());
      return;
    }
    // Symbolized-only producers (no addresses): the inlined frames' functions and lines.
    k += 'F';
    for (const auto& line : loc.line()) {
      auto f = functions_.find(line.function_id());
      k += f == functions_.end() ? std::string_view() : str(f->second->name());
      k += '\0';
      appendU64(k, static_cast<uint64_t>(line.line()));
    }
    k += ';';
  }

  void appendLabels(std::string& k, const Sample& s) const {
    if (s.label_size() == 0) return;
    std::vector<std::tuple<std::string_view, std::string_view, int64_t, std::string_view>> labels;
    labels.reserve(s.label_size());
    for (const auto& l : s.label()) labels.emplace_back(str(l.key()), str(l.str()), l.num(), str(l.num_unit()));
    std::sort(labels.begin(), labels.end());
    for (const auto& [key, sv, num, unit] : labels) {
      k.append(key);
      k += '\0';
      k.append(sv);
      k += '\0';
      appendU64(k, static_cast<uint64_t>(num));
      k.append(unit);
      k += '\0';
    }
  }

  const Profile& p_;
  std::unordered_map<uint64_t, const perftools::profiles::Location*> locations_;
  std::unordered_map<uint64_t, const perftools::profiles::Function*> functions_;
};

// Samples with the same key summed (Go's heap profile can repeat a stack).
struct Aggregated {
  std::vector<std::string> keys;
  std::vector<const Sample*> first;  // the sample whose stack and labels represent the key
  std::vector<std::vector<int64_t>> values;
  std::unordered_map<std::string, size_t> index;  // key -> position
};

Aggregated aggregate(const Profile& p) {
  Aggregated a;
  KeyBuilder kb(p);
  auto& index = a.index;
  const int n = p.sample_type_size();
  for (const auto& s : p.sample()) {
    if (s.value_size() != n) continue;  // invalid; decodeProfile never lets one through
    std::string k = kb.key(s);
    auto [it, inserted] = index.emplace(k, a.keys.size());
    if (inserted) {
      a.keys.push_back(std::move(k));
      a.first.push_back(&s);
      a.values.emplace_back(s.value().begin(), s.value().end());
    } else {
      auto& v = a.values[it->second];
      for (int j = 0; j < n; ++j) v[j] += s.value(j);
    }
  }
  return a;
}

void seed(DeltaState& state, Aggregated& a, const std::vector<int>& cumulative, std::vector<std::string> signature,
          int64_t now) {
  state.primed = true;
  state.time_nanos = now;
  state.signature = std::move(signature);
  state.values.clear();
  state.values.reserve(a.keys.size());
  for (size_t i = 0; i < a.keys.size(); ++i) {
    std::vector<int64_t> cum;
    cum.reserve(cumulative.size());
    for (int j : cumulative) cum.push_back(a.values[i][j]);
    state.values.emplace(std::move(a.keys[i]), std::move(cum));
  }
}

// A counter below its baseline, or a counted key gone (Go never forgets a memory, mutex or block
// bucket while the process lives), means the counters started over: a restart.
bool wasReset(const Aggregated& a, const DeltaState& state, const std::vector<int>& cumulative) {
  size_t matched = 0;
  for (size_t i = 0; i < a.keys.size(); ++i) {
    auto it = state.values.find(a.keys[i]);
    if (it == state.values.end()) continue;
    ++matched;
    for (size_t c = 0; c < cumulative.size(); ++c)
      if (a.values[i][cumulative[c]] < it->second[c]) return true;
  }
  if (matched == state.values.size()) return false;
  for (const auto& [key, prev] : state.values)
    if (std::any_of(prev.begin(), prev.end(), [](int64_t v) { return v != 0; }) && !a.index.count(key)) return true;
  return false;
}

// Keeps only the locations the samples use and the functions those locations use.
void pruneTables(Profile* out) {
  std::unordered_set<uint64_t> used_locations, used_functions;
  for (const auto& s : out->sample()) used_locations.insert(s.location_id().begin(), s.location_id().end());
  auto* locs = out->mutable_location();
  locs->erase(std::remove_if(locs->begin(), locs->end(),
                             [&](const auto& l) { return !used_locations.count(l.id()); }),
              locs->end());
  for (const auto& l : *locs)
    for (const auto& line : l.line()) used_functions.insert(line.function_id());
  auto* funcs = out->mutable_function();
  funcs->erase(std::remove_if(funcs->begin(), funcs->end(),
                              [&](const auto& f) { return !used_functions.count(f.id()); }),
               funcs->end());
}

}  // namespace

bool isCumulativeSampleType(std::string_view type) {
  return type == "alloc_objects" || type == "alloc_space" || type == "contentions" || type == "delay";
}

const char* deltaOutcomeName(DeltaOutcome o) {
  switch (o) {
    case DeltaOutcome::kPassThrough: return "pass_through";
    case DeltaOutcome::kPrimed: return "primed";
    case DeltaOutcome::kReset: return "reset";
    case DeltaOutcome::kTooManyKeys: return "too_many_keys";
    case DeltaOutcome::kDelta: return "delta";
  }
  return "unknown";
}

DeltaOutcome computeDelta(const Profile& current, DeltaState& state, Profile* out, const DeltaOptions& options) {
  auto str = [&](int64_t i) {
    return i >= 0 && i < current.string_table_size() ? current.string_table(i) : std::string();
  };
  std::vector<int> cumulative;
  std::vector<std::string> signature;
  for (int i = 0; i < current.sample_type_size(); ++i) {
    const auto& t = current.sample_type(i);
    signature.push_back(str(t.type()) + "/" + str(t.unit()));
    if (isCumulativeSampleType(str(t.type()))) cumulative.push_back(i);
  }
  if (cumulative.empty()) {
    *out = current;
    return DeltaOutcome::kPassThrough;
  }

  Aggregated a = aggregate(current);
  const int64_t now = current.time_nanos() != 0 ? current.time_nanos() : options.now_nanos;
  if (a.keys.size() > options.max_keys) {
    state.clear();
    return DeltaOutcome::kTooManyKeys;
  }
  if (!state.primed || state.signature != signature) {
    seed(state, a, cumulative, std::move(signature), now);
    return DeltaOutcome::kPrimed;
  }
  if (wasReset(a, state, cumulative)) {
    seed(state, a, cumulative, std::move(signature), now);
    return DeltaOutcome::kReset;
  }

  *out = current;
  out->clear_sample();
  for (size_t i = 0; i < a.keys.size(); ++i) {
    std::vector<int64_t>& v = a.values[i];
    std::vector<int64_t> diff = v;
    if (auto it = state.values.find(a.keys[i]); it != state.values.end())
      for (size_t c = 0; c < cumulative.size(); ++c) diff[cumulative[c]] -= it->second[c];
    if (std::all_of(diff.begin(), diff.end(), [](int64_t x) { return x == 0; })) continue;
    Sample* s = out->add_sample();
    *s->mutable_location_id() = a.first[i]->location_id();
    *s->mutable_label() = a.first[i]->label();
    s->mutable_value()->Add(diff.begin(), diff.end());
  }
  pruneTables(out);
  if (state.time_nanos > 0 && now > state.time_nanos) {
    out->set_time_nanos(state.time_nanos);
    out->set_duration_nanos(now - state.time_nanos);
  }
  seed(state, a, cumulative, std::move(signature), now);
  return DeltaOutcome::kDelta;
}

}  // namespace proflow::receivers::pprof
