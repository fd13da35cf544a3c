// What the statement groups run over one batch share when they edit it: the strings, attributes
// and attribute lists they add to its dictionary, each added once.
//
// A transform usually adds a few distinct entries to a batch (one key, one value set on many
// samples). Indexing a whole dictionary table to find those few would cost more than the
// statements: so entries are first looked for by a scan of the table, and the table is indexed
// (flat::DictionaryIndex) only once the scans of a batch pass a budget. Attributes set by value are
// remembered, so a statement setting the same attribute on every sample finds it at once.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/flat/flat_batch.h"
#include "core/flat/flat_merge.h"
#include "core/ottl/value.h"
#include "core/util/index_set.h"
#include "core/util/status.h"

namespace proflow::ottl {

class BatchEdits {
 public:
  // Asked after each item a statement group visited, with the batch as edited so far: a non-OK
  // answer stops the run and is its result. Lets the caller bound what edits add while they add it
  // (the transform processor charges the batch's growth to its request's memory budget).
  std::function<Status(const flat::Batch&)> after_item;

  // The index of string `s` in the batch's table, appended when absent.
  int32_t string(flat::Batch& b, std::string_view s);
  // The dictionary attribute {key, unit, v} (v a string, bytes, bool, int or float), appended
  // when absent.
  int32_t scalarAttribute(flat::Batch& b, std::string_view key, int32_t unit_strindex, const Value& v);
  // Where the attribute index list `list` is in b.indices: appended once per batch, shared by
  // every item that ends up with the same list.
  flat::Range list(flat::Batch& b, std::span<const int32_t> list);
  // The batch's full interning index (what editors that rewrite whole maps use); once it exists,
  // every addition goes through it.
  flat::DictionaryIndex& index(flat::Batch& b);

 private:
  // Scanning spends this many entry comparisons per batch before the tables get indexed.
  static constexpr size_t kScanBudget = 1 << 16;
  bool mayScan(size_t entries);

  struct Remembered {
    std::string key;
    int32_t unit = 0;
    Value value;
    int32_t index = 0;
  };
  std::optional<flat::DictionaryIndex> dict_;
  size_t scanned_ = 0;
  std::vector<Remembered> recent_;  // the last attributes added by value, newest last
  std::vector<flat::Range> lists_;  // the lists list() added, in b.indices
  IndexSet lists_index_;
};

}  // namespace proflow::ottl
