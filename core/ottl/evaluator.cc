#include "core/ottl/evaluator.h"

#include <limits>

#include "core/ottl/functions.h"

namespace proflow::ottl {

Evaluator::Evaluator(flat::Batch& batch, int memo_slots, BatchEdits* edits)
    : b_(batch),
      mut_(&batch),
      edits_(edits ? edits : &own_edits_),
      memo_(static_cast<size_t>(memo_slots)),
      frame_memo_(static_cast<size_t>(memo_slots)),
      function_memo_(static_cast<size_t>(memo_slots)) {}
Evaluator::Evaluator(const flat::Batch& batch, int memo_slots)
    : b_(batch),
      mut_(nullptr),
      edits_(&own_edits_),
      memo_(static_cast<size_t>(memo_slots)),
      frame_memo_(static_cast<size_t>(memo_slots)),
      function_memo_(static_cast<size_t>(memo_slots)) {}

flat::Batch& Evaluator::writable(const Expr& at) {
  if (!mut_) fail(at, "conditions cannot change the data");
  return *mut_;
}

void Evaluator::fail(const Expr& at, std::string message) { throw EvalError{std::move(message), at.column}; }

void Evaluator::begin(const Item& item) {
  item_ = item;
  frame_ = Frame{};
  if (!cache_.keys.empty()) cache_ = Value::map();
}

bool Evaluator::test(const Expr& condition) {
  switch (condition.kind) {  // what eval() would answer, without building values
    case ExprKind::kAnd: return test(*condition.args[0]) && test(*condition.args[1]);
    case ExprKind::kOr: return test(*condition.args[0]) || test(*condition.args[1]);
    case ExprKind::kNot: return !test(*condition.args[0]);
    case ExprKind::kCall:
      if (!condition.keys.empty()) break;
      if (condition.memo_slot >= 0) return anyFrame(condition, *condition.args[0]);
      if (condition.function && condition.function->predicate)
        return condition.function->predicate(*this, condition, condition.args);
      break;
    case ExprKind::kCompare:
      if (const auto same = frameEquals(condition)) return condition.name[0] == '=' ? *same : !*same;
      break;
    default: break;
  }
  Value v = eval(condition);
  if (v.kind != Value::Kind::kBool)
    fail(condition, std::string("a condition must give true or false, this gives a ") + kindName(v.kind));
  return v.b;
}

void Evaluator::execute(const Statement& statement) {
  if (statement.condition && !test(*statement.condition)) return;
  eval(*statement.editor);
}

Value Evaluator::eval(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kLiteral: return e.literal;
    case ExprKind::kPath: return get(e);
    case ExprKind::kList: {
      Value out = Value::list({});
      out.items.reserve(e.args.size());
      for (const auto& a : e.args) out.items.push_back(eval(*a));
      return out;
    }
    case ExprKind::kMap: {
      Value out = Value::map();
      for (size_t i = 0; i < e.args.size(); ++i) out.put(e.arg_names[i], eval(*e.args[i]));
      return out;
    }
    case ExprKind::kCall: {
      Value r = e.function->impl(*this, e, e.args);
      if (e.keys.empty()) return r;
      return index(e, std::move(r), e.keys, 0);
    }
    case ExprKind::kName: fail(e, "'" + e.name + "' is a function, not a value here");
    case ExprKind::kMath: return math(e);
    case ExprKind::kNegate: {
      Value v = eval(*e.args[0]);
      if (v.kind == Value::Kind::kInt && v.i != std::numeric_limits<int64_t>::min()) return Value::integer(-v.i);
      if (v.kind == Value::Kind::kDouble) return Value::floating(-v.d);
      fail(e, std::string("cannot negate a ") + kindName(v.kind));
    }
    case ExprKind::kCompare: {
      Value a = eval(*e.args[0]), b = eval(*e.args[1]);
      const char op = e.name[0], second = e.name.size() > 1 ? e.name[1] : '\0';  // == != < <= > >=
      if (op == '=') return Value::boolean(equal(a, b));
      if (op == '!') return Value::boolean(!equal(a, b));
      auto c = compare(a, b);
      if (!c) return Value::boolean(false);
      if (op == '<') return Value::boolean(second == '=' ? *c <= 0 : *c < 0);
      return Value::boolean(second == '=' ? *c >= 0 : *c > 0);
    }
    case ExprKind::kAnd: return Value::boolean(test(*e.args[0]) && test(*e.args[1]));
    case ExprKind::kOr: return Value::boolean(test(*e.args[0]) || test(*e.args[1]));
    case ExprKind::kNot: return Value::boolean(!test(*e.args[0]));
  }
  fail(e, "unknown expression");
}

Value Evaluator::math(const Expr& e) {
  Value a = eval(*e.args[0]), b = eval(*e.args[1]);
  const char op = e.name[0];
  if (a.kind == Value::Kind::kInt && b.kind == Value::Kind::kInt) {
    int64_t r = 0;
    bool overflow = false;
    switch (op) {
      case '+': overflow = __builtin_add_overflow(a.i, b.i, &r); break;
      case '-': overflow = __builtin_sub_overflow(a.i, b.i, &r); break;
      case '*': overflow = __builtin_mul_overflow(a.i, b.i, &r); break;
      default:
        if (b.i == 0) fail(e, "division by zero");
        if (a.i == std::numeric_limits<int64_t>::min() && b.i == -1) overflow = true;
        else r = a.i / b.i;
    }
    if (overflow) fail(e, "integer overflow");
    return Value::integer(r);
  }
  if (a.kind == Value::Kind::kDouble && b.kind == Value::Kind::kDouble) {
    switch (op) {
      case '+': return Value::floating(a.d + b.d);
      case '-': return Value::floating(a.d - b.d);
      case '*': return Value::floating(a.d * b.d);
      default:
        if (b.d == 0) fail(e, "division by zero");
        return Value::floating(a.d / b.d);
    }
  }
  fail(e, std::string("cannot compute ") + kindName(a.kind) + " " + e.name + " " + kindName(b.kind) +
              " (ints and floats do not mix; convert with Int() or Double())");
}

Value Evaluator::index(const Expr& at, Value v, const std::vector<ExprPtr>& keys, size_t from) {
  for (size_t i = from; i < keys.size(); ++i) {
    Value k = eval(*keys[i]);
    if (v.isNil()) return v;
    if (v.isMap() && k.isString()) {
      const Value* found = v.find(k.s);
      v = found ? *found : Value::nil();
    } else if (v.isList() && k.kind == Value::Kind::kInt) {
      if (k.i < 0 || static_cast<size_t>(k.i) >= v.items.size())
        fail(*keys[i], "index " + std::to_string(k.i) + " is out of range (" + std::to_string(v.items.size()) +
                           " elements)");
      v = v.items[static_cast<size_t>(k.i)];
    } else {
      fail(at, std::string("cannot index a ") + kindName(v.kind) + " with a " + kindName(k.kind));
    }
  }
  return v;
}

Value Evaluator::get(const Expr& e) {
  const PathRef& p = e.path;
  if (!e.keys.empty() && p.is_map && p.field != Field::kCache) {
    const MapLevel level = mapLevel(p.field);
    if (!maps_[level].loaded) {
      Value k = eval(*e.keys[0]);
      if (!k.isString()) fail(*e.keys[0], std::string("attribute keys are strings, not ") + kindName(k.kind));
      return index(e, readAttribute(level, k.s), e.keys, 1);
    }
  }
  return e.keys.empty() ? field(p) : index(e, field(p), e.keys, 0);
}

namespace {

// Sets `v` at keys[from..] inside `container` (maps by string keys, lists by int keys), creating
// maps on the way as the Collector does for attribute paths.
void setNested(Evaluator& ev, const Expr& at, Value& container, const std::vector<ExprPtr>& keys, size_t from,
               Value v) {
  Value* cur = &container;
  for (size_t i = from; i < keys.size(); ++i) {
    Value k = ev.eval(*keys[i]);
    if (cur->isNil()) *cur = Value::map();
    if (cur->isMap() && k.isString()) {
      Value* next = cur->find(k.s);
      if (!next) {
        cur->put(k.s, Value::nil());
        next = cur->find(k.s);
      }
      cur = next;
    } else if (cur->isList() && k.kind == Value::Kind::kInt) {
      if (k.i < 0 || static_cast<size_t>(k.i) >= cur->items.size())
        Evaluator::fail(*keys[i], "index " + std::to_string(k.i) + " is out of range");
      cur = &cur->items[static_cast<size_t>(k.i)];
    } else {
      Evaluator::fail(at, std::string("cannot index a ") + kindName(cur->kind) + " with a " + kindName(k.kind));
    }
  }
  *cur = std::move(v);
}

}  // namespace

void Evaluator::set(const Expr& e, Value v) {
  if (mayBeListed(e) && trySetListed(e, v)) return;
  setValue(e, std::move(v));
}

void Evaluator::setConstant(const Expr& e, const Value& v) {
  if (mayBeListed(e) && trySetListed(e, v)) return;
  setValue(e, v);
}

// Whether `e` is attributes[key] of a map the batch holds (not the cache), which needs a writable batch.
bool Evaluator::mayBeListed(const Expr& e) {
  if (e.keys.empty() || !e.path.is_map || e.path.field == Field::kCache) return false;
  writable(e);
  return true;
}

void Evaluator::setValue(const Expr& e, Value v) {
  const PathRef& p = e.path;
  if (e.keys.empty()) {
    setField(e, p, std::move(v));
    return;
  }
  if (!p.is_map) fail(e, "only maps (attributes, cache) can be set by key");
  if (p.field == Field::kCache) {
    setNested(*this, e, cache_, e.keys, 0, std::move(v));
    return;
  }
  writable(e);
  const MapLevel level = mapLevel(p.field);
  Value& map = loadMap(level);
  setNested(*this, e, map, e.keys, 0, std::move(v));
  maps_[level].dirty = true;
}

// `frame_field == "text"` (either way round, == or !=) compared where the frame's string lies;
// nullopt for any other comparison. A frame without the field reads nil, equal to no string.
std::optional<bool> Evaluator::frameEquals(const Expr& compare) const {
  if (compare.name != "==" && compare.name != "!=") return std::nullopt;
  const Expr* path = compare.args[0].get();
  const Expr* text = compare.args[1].get();
  if (path->kind == ExprKind::kLiteral) std::swap(path, text);
  if (text->kind != ExprKind::kLiteral || !text->literal.isString() || path->kind != ExprKind::kPath ||
      !isFrameField(path->path.field) || !path->keys.empty())
    return std::nullopt;
  const Field f = path->path.field;
  if (f == Field::kFrameLine || f == Field::kFrameAddress) return std::nullopt;
  const auto value = frameString(*path);
  return value && *value == text->literal.s;
}

bool Evaluator::trySetListed(const Expr& e, const Value& v) {
  if (e.keys.size() != 1 || !e.path.is_map || e.path.field == Field::kCache) return false;
  const MapLevel level = mapLevel(e.path.field);
  if (maps_[level].loaded || (level != kProfileMap && level != kSampleMap)) return false;
  const Expr& key = *e.keys[0];
  if (key.kind == ExprKind::kLiteral) return key.literal.isString() && setListed(e, level, key.literal.s, v);
  const Value k = eval(key);
  return k.isString() && setListed(e, level, k.s, v);
}

bool Evaluator::anyFrame(const Expr& call, const Expr& condition) {
  if (item_.row == flat::kNone) fail(call, "AnyFrame needs a sample");
  const int32_t stack = b_.samples.stack_index[item_.row];
  if (stack <= 0 || static_cast<size_t>(stack) >= b_.stacks.size()) return false;
  const auto locations = b_.indexList(b_.stacks[static_cast<size_t>(stack)].locations);
  const Frame saved = frame_;
  bool found = false;
  if (call.memo_slot < 0) {
    for (int32_t loc : locations) {
      if (loc <= 0 || static_cast<size_t>(loc) >= b_.locations.size()) continue;
      if ((found = locationHolds(call, condition, loc))) break;
    }
    frame_ = saved;
    return found;
  }
  const auto slot = static_cast<size_t>(call.memo_slot);
  std::vector<int8_t>& memo = memo_[slot];
  if (memo.size() < b_.stacks.size()) memo.resize(b_.stacks.size(), -1);
  if (memo[static_cast<size_t>(stack)] >= 0) return memo[static_cast<size_t>(stack)] == 1;
  // The answer of every location of the batch first (a location recurs across stacks), then
  // a stack is a scan of its locations' answers.
  std::vector<int8_t>& at = frame_memo_[slot];
  if (at.size() < b_.locations.size()) {
    at.assign(b_.locations.size(), -1);
    if (call.memo_by_function) function_memo_[slot].assign(std::max<size_t>(1, b_.functions.size()), -1);
    try {
      for (size_t loc = 1; loc < b_.locations.size(); ++loc)
        at[loc] = locationHolds(call, condition, static_cast<int32_t>(loc)) ? 1 : 0;
    } catch (const EvalError&) {
      // Left unknown from there: a stack reaching a failing location fails, as it would frame by frame.
    }
  }
  for (int32_t loc : locations) {
    if (loc <= 0 || static_cast<size_t>(loc) >= at.size()) continue;
    int8_t& answer = at[static_cast<size_t>(loc)];
    if (answer < 0) answer = locationHolds(call, condition, loc) ? 1 : 0;
    if ((found = answer == 1)) break;
  }
  frame_ = saved;
  memo[static_cast<size_t>(stack)] = found ? 1 : 0;
  return found;
}

// Whether the condition holds for a frame of `location` (each inlined line is a frame).
bool Evaluator::locationHolds(const Expr& call, const Expr& condition, int32_t location) {
  const flat::Location& loc = b_.locations[static_cast<size_t>(location)];
  const uint32_t lines = std::max<uint32_t>(1, loc.lines.size);
  bool found = false;
  for (uint32_t line = 0; line < lines && !found; ++line) {
    frame_ = Frame{location, line};
    if (!call.memo_by_function) {
      found = test(condition);
      continue;
    }
    // Functions recur across locations (one per call site): answered once per function, in the
    // memo anyFrame sized to the function table (index 0 stands for "no function": fields nil).
    int32_t fn = line < loc.lines.size ? b_.lines[loc.lines.begin + line].function_index : 0;
    if (fn < 0 || static_cast<size_t>(fn) >= b_.functions.size()) fn = 0;
    int8_t& answer = function_memo_[static_cast<size_t>(call.memo_slot)][static_cast<size_t>(fn)];
    if (answer < 0) answer = test(condition) ? 1 : 0;
    found = answer == 1;
  }
  return found;
}

int32_t Evaluator::internString(const Expr& at, std::string_view s) { return edits_->string(writable(at), s); }

flat::DictionaryIndex& Evaluator::dict() { return edits_->index(*mut_); }

}  // namespace proflow::ottl
