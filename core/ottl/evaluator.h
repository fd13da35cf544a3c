// Evaluates compiled OTTL over one flat batch, one item (a resource, scope, profile or sample) at a
// time. Attribute maps an editor changes are held as values until end(), then written back through
// the dictionary-aware helpers of core/attributes: untouched entries keep their encoding (inline or
// reference-based), changed ones are written inline (resource, scope) or interned (profile, sample).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/flat/flat_batch.h"
#include "core/flat/flat_merge.h"
#include "core/ottl/ast.h"
#include "core/ottl/batch_edits.h"

namespace proflow::ottl {

// A statement or condition failed on this item (a type mismatch, a division by zero, ...).
struct EvalError {
  std::string message;
  int column = 0;
};

// Where the evaluation stands; kNone for the levels below the item's.
struct Item {
  uint32_t resource = flat::kNone, scope = flat::kNone, profile = flat::kNone, row = flat::kNone;
};

class Evaluator {
 public:
  // `memo_slots`: the program's count of memoizable AnyFrame calls. A batch given as const can
  // only be read: an editor run on it fails.
  // `edits`: shared with other evaluators of the same batch (null: this evaluator's own).
  Evaluator(flat::Batch& batch, int memo_slots, BatchEdits* edits = nullptr);
  Evaluator(const flat::Batch& batch, int memo_slots);

  const flat::Batch& batch() const { return b_; }

  // Starts an item: clears the cache. end() writes the edited attribute maps back.
  void begin(const Item& item);
  void end();

  // These throw EvalError.
  bool test(const Expr& condition);
  void execute(const Statement& statement);
  Value eval(const Expr& e);
  Value get(const Expr& path);
  void set(const Expr& path, Value v);
  // set() of a value the caller keeps (a literal): copied only where it is stored as a value.
  void setConstant(const Expr& path, const Value& v);
  // delete_key on a profile's or sample's attributes, done on its index list; false when the
  // target is another map (the caller edits it as a map).
  bool deleteListedKey(const Expr& target, std::string_view key);
  // AnyFrame: true when `condition` holds for a frame of the sample's stack (inlined lines count).
  bool anyFrame(const Expr& call, const Expr& condition);
  [[noreturn]] static void fail(const Expr& at, std::string message);

  // A string frame field (function, system_name, filename, mapping.filename) read without a copy;
  // nullopt when the frame has none (the path reads nil) or `path` is another path.
  std::optional<std::string_view> frameString(const Expr& path) const;
  std::optional<bool> frameEquals(const Expr& compare) const;

  // Strings of the dictionary interned in place (sample types set by statements).
  int32_t internString(const Expr& at, std::string_view s);

 private:
  enum MapLevel { kResourceMap, kScopeMap, kProfileMap, kSampleMap, kMapLevels };
  // An item's attribute map while statements run on it. A profile's or sample's list is edited as
  // dictionary indexes (`listed`) while statements only set scalars by key or delete keys: most
  // sample edits then cost an index lookup, not a map built and interned again. Any other use
  // turns it into a map (`loaded`).
  struct MapSlot {
    bool loaded = false;
    bool listed = false;
    bool dirty = false;
    Value map;
    std::vector<int32_t> list;
  };
  struct Frame {
    int32_t location = -1;
    uint32_t line = 0;  // index into the location's lines; a location without lines has one frame
  };

  Value field(const PathRef& p);
  void setField(const Expr& at, const PathRef& p, Value v);
  Value frameField(Field f, const Frame& frame) const;
  Frame leafFrame() const;

  static MapLevel mapLevel(Field f);
  Value& loadMap(MapLevel level);
  std::span<const int32_t> originalList(MapLevel level) const;
  std::span<const int32_t> currentList(MapLevel level) const;
  std::vector<int32_t>* editableList(MapLevel level);
  bool setListed(const Expr& at, MapLevel level, std::string_view key, const Value& v);
  // set(attributes[key], v) on a profile's or sample's index list, when it can be edited as one.
  bool trySetListed(const Expr& path, const Value& v);
  bool mayBeListed(const Expr& path);
  void setValue(const Expr& path, Value v);  // set() as a value, once the index list is ruled out
  Value readAttribute(MapLevel level, std::string_view key);
  Value readMap(MapLevel level) const;
  void writeBack(MapLevel level);
  void writeList(MapLevel level);
  flat::DictionaryIndex& dict();
  flat::Batch& writable(const Expr& at);

  Value math(const Expr& e);
  bool locationHolds(const Expr& call, const Expr& condition, int32_t location);
  Value index(const Expr& at, Value v, const std::vector<ExprPtr>& keys, size_t from);

  const flat::Batch& b_;
  flat::Batch* mut_;  // null when read-only
  Item item_;
  Frame frame_;
  Value cache_ = Value::map();
  std::array<MapSlot, kMapLevels> maps_;
  BatchEdits own_edits_;
  BatchEdits* edits_;
  // Memoized answers of frame-only AnyFrame conditions, -1 unknown, 0 false, 1 true: per stack
  // ([slot][stack index]), per location ([slot][location index]) and, for conditions on the
  // function's fields only, per function ([slot][function index]).
  std::vector<std::vector<int8_t>> memo_;
  std::vector<std::vector<int8_t>> frame_memo_;
  std::vector<std::vector<int8_t>> function_memo_;
};

}  // namespace proflow::ottl
