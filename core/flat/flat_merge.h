// Appends flat batches into one, the flat counterpart of RequestMerger (same result in meaning, and
// the same dictionary order): every dictionary reference of a source is re-pointed into the
// destination through per-source remap tables filled lazily (orphans are not copied), entries are
// interned so the destination holds each once, and resources with identical attributes and
// schema_url are combined. Scopes are appended, never combined. Time is linear in what is appended.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/flat/flat_batch.h"
#include "core/flat/flat_identity.h"
#include "core/util/index_set.h"

namespace proflow::flat {

// Interning tables over a batch's dictionary: adding an entry equal to an existing one returns the
// existing index. Built over the entries the batch already holds (keeping the first of duplicates);
// index 0 of every table is created when missing.
class DictionaryIndex {
 public:
  explicit DictionaryIndex(Batch* batch);

  int32_t string(std::string_view s);
  int32_t function(const Function& f);
  // The candidate's lists are `attributes` (and `lines`), not yet in the batch's columns.
  int32_t mapping(const Mapping& m, std::span<const int32_t> attributes);
  int32_t location(const Location& l, std::span<const Line> lines, std::span<const int32_t> attributes);
  int32_t stack(std::span<const int32_t> locations);
  int32_t link(std::string_view trace_id, std::string_view span_id);
  // `identity` is attributeIdentity() of the candidate; `make` appends it and returns its index.
  int32_t attribute(const std::string& identity, const std::function<int32_t()>& make);
  // Interns `candidate` (its strings already in the batch: keys and units as dictionary indexes,
  // string values in the arena); appends it when new.
  int32_t attribute(const Attribute& candidate);
  // A string / bool attribute without a unit (flat_intern.cc). The value is stored in the arena only when the attribute is new.
  int32_t stringAttribute(std::string_view key, std::string_view value);
  int32_t boolAttribute(std::string_view key, bool value);

  // Identity of attribute `i` of the batch (strings resolved), into `out`.
  void attributeIdentity(int32_t i, std::string& out) const;
  Batch& batch() { return *b_; }

  // Entries a converter expects to add (it knows its input's table sizes): the sets and tables are
  // sized once instead of rehashing and regrowing on the way.
  struct Expected {
    size_t strings = 0, functions = 0, mappings = 0, locations = 0, stacks = 0, attributes = 0, links = 0;
  };
  void reserve(const Expected& e);

 private:
  enum Table : uint8_t {
    kStrings = 1,
    kFunctions = 2,
    kMappings = 4,
    kLocations = 8,
    kStacks = 16,
    kLinks = 32,
    kAttributes = 64,
  };
  // The set of table `t`, its existing entries indexed on first use.
  IndexSet& ready(Table t);
  IndexSet& setOf(Table t);

  Batch* b_;
  uint8_t built_ = 0;  // tables whose existing entries are indexed
  IndexSet strings_, functions_, mappings_, locations_, stacks_, links_, attributes_;
  mutable std::string cmp_;
  std::string identity_;  // attribute(const Attribute&)'s candidate: one buffer, not an allocation per call
};

class Merger {
 public:
  explicit Merger(Batch* dst);

  // What append() copies of its source; the default is everything.
  struct Selection {
    std::vector<bool> resources;  // by resource index; empty = every resource
    // Profiles [first_profile, end_profile) in resource -> scope -> profile order. When set,
    // resources and scopes without a profile in the range are left out.
    uint64_t first_profile = 0, end_profile = UINT64_MAX;
    // By profile index (`src.profiles`) and by sample row (`src.samples`); empty = all, an index
    // past the end is not selected. Resources and scopes left without a selected profile are left
    // out; a profile whose samples are all unselected is kept, empty.
    std::vector<bool> profiles, samples;
  };

  // Announces a batch that will be appended: the first append() then sizes the destination's
  // sample columns once for all announced batches instead of regrowing them on the way.
  void expect(const Batch& src);
  // Copies `src` into the destination. `src` is only read (it may be the destination itself).
  void append(const Batch& src);
  void append(const Batch& src, const Selection& selection);

 private:
  class Remap;
  struct Expected {
    size_t samples = 0, values = 0, timestamps = 0, indices = 0, profiles = 0;
  };
  void reserveExpected();
  Expected expected_;
  std::string resourceKey(const Resource& r) const;

  Batch* dst_;
  DictionaryIndex dict_;
  std::unordered_map<std::string, uint32_t> resource_by_key_;
};

}  // namespace proflow::flat
