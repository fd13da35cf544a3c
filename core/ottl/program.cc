#include "core/ottl/program.h"

#include "core/ottl/compiler.h"
#include "core/ottl/parser.h"

namespace proflow::ottl {

std::optional<ErrorMode> parseErrorMode(std::string_view s) {
  if (s == "ignore") return ErrorMode::kIgnore;
  if (s == "silent") return ErrorMode::kSilent;
  if (s == "propagate") return ErrorMode::kPropagate;
  return std::nullopt;
}

void RunStats::record(const std::string& text, const EvalError& e) {
  if (errors++ == 0) first_error = "'" + text + "' column " + std::to_string(e.column) + ": " + e.message;
}

namespace {

// Parses and binds conditions through `compiler`; appends failures to `errors`.
template <class Out>
void compileConditions(Compiler& compiler, const std::vector<std::string>& texts, Out& out,
                       std::vector<CompileError>* errors) {
  for (size_t i = 0; i < texts.size(); ++i) {
    ExprPtr expr;
    ParseError e = parseCondition(texts[i], &expr);
    if (e.ok()) e = compiler.bindCondition(*expr);
    if (!e.ok()) {
      errors->push_back({i, true, e.column, e.message});
      continue;
    }
    out.push_back({std::move(expr), texts[i]});
  }
}

// True when the condition's answer depends on the sample's stack alone: frame-only AnyFrame calls
// (memoized per stack) and literals joined by and / or / not.
bool stackOnly(const Expr& e) {
  switch (e.kind) {
    case ExprKind::kAnd:
    case ExprKind::kOr:
    case ExprKind::kNot:
      for (const auto& a : e.args)
        if (!stackOnly(*a)) return false;
      return true;
    case ExprKind::kCall: return e.memo_slot >= 0 && e.keys.empty();
    case ExprKind::kLiteral: return true;
    default: return false;
  }
}

// The deepest level `e` reads; nullopt when it reads what belongs to the item itself (the cache,
// a frame) or calls AnyFrame.
std::optional<ContextKind> levelRead(const Expr& e) {
  ContextKind level = ContextKind::kResource;
  if (e.kind == ExprKind::kPath) {
    if (e.path.field == Field::kCache || isFrameField(e.path.field)) return std::nullopt;
    level = e.path.level;
  }
  if (e.kind == ExprKind::kCall && e.function && e.function->name == "AnyFrame") return std::nullopt;
  for (const auto* list : {&e.args, &e.keys})
    for (const auto& a : *list) {
      if (!a) continue;
      const auto inner = levelRead(*a);
      if (!inner) return std::nullopt;
      level = std::max(level, *inner);
    }
  return level;
}

// The level a statement's editor writes: its target, every editor's first argument (the cache
// belongs to the item, the deepest level).
ContextKind levelWritten(const Statement& s) {
  const auto& args = s.editor->args;
  if (args.empty() || !args[0] || args[0]->kind != ExprKind::kPath) return ContextKind::kResource;  // unknown: the outermost
  return args[0]->path.field == Field::kCache ? ContextKind::kSample : args[0]->path.level;
}

}  // namespace

std::optional<ConditionSet> ConditionSet::compile(std::optional<ContextKind> context,
                                                  const std::vector<std::string>& conditions,
                                                  std::vector<CompileError>* errors) {
  const size_t before = errors->size();
  Compiler compiler(context);
  ConditionSet set;
  compileConditions(compiler, conditions, set.conditions_, errors);
  if (errors->size() != before) return std::nullopt;
  set.context_ = context.value_or(compiler.deepest());
  set.memo_slots_ = compiler.memoSlots();
  return set;
}

bool ConditionSet::matches(Evaluator& ev, const Item& item, RunStats* stats, bool* failed) const {
  ev.begin(item);
  for (const auto& c : conditions_) {
    try {
      if (ev.test(*c.expr)) return true;
    } catch (const EvalError& e) {
      stats->record(c.text, e);
      if (failed) {
        *failed = true;
        return false;
      }
    }
  }
  return false;
}

std::vector<bool> ConditionSet::matchResources(const flat::Batch& b, RunStats* stats) const {
  std::vector<bool> out(b.resources.size(), false);
  Evaluator ev(b, memo_slots_);
  for (uint32_t r = 0; r < b.resources.size(); ++r) out[r] = matches(ev, Item{r}, stats);
  return out;
}

std::optional<StatementGroup> StatementGroup::compile(std::optional<ContextKind> context,
                                                      const std::vector<std::string>& conditions,
                                                      const std::vector<std::string>& statements,
                                                      std::vector<CompileError>* errors) {
  const size_t before = errors->size();
  Compiler compiler(context);
  StatementGroup g;
  compileConditions(compiler, conditions, g.conditions_.conditions_, errors);
  for (size_t i = 0; i < statements.size(); ++i) {
    Statement s;
    ParseError e = parseStatement(statements[i], &s);
    if (e.ok()) e = compiler.bindStatement(s);
    if (!e.ok()) {
      errors->push_back({i, false, e.column, e.message});
      continue;
    }
    g.statements_.push_back({std::move(s), statements[i]});
  }
  if (errors->size() != before) return std::nullopt;
  g.context_ = context.value_or(compiler.deepest());
  g.memo_slots_ = compiler.memoSlots();
  g.conditions_.context_ = g.context_;
  g.stack_conditions_only_ = g.context_ == ContextKind::kSample && g.conditions_.empty() && !g.statements_.empty();
  for (const auto& s : g.statements_)
    if (!s.statement.condition || !stackOnly(*s.statement.condition)) g.stack_conditions_only_ = false;
  std::optional<ContextKind> read = ContextKind::kResource;
  for (const auto& c : g.conditions_.conditions_) {
    const auto level = levelRead(*c.expr);
    read = level && read ? std::optional(std::max(*read, *level)) : std::nullopt;
  }
  if (!g.conditions_.empty() && read && *read < g.context_) {
    g.conditions_level_ = read;
    for (const auto& s : g.statements_)
      if (levelWritten(s.statement) <= *read) g.conditions_level_.reset();
  }
  return g;
}

bool StatementGroup::noneApplies(Evaluator& ev, const flat::Batch& b, const Item& item, std::vector<int8_t>& skip) const {
  const int32_t stack = b.samples.stack_index[item.row];
  if (stack <= 0 || static_cast<size_t>(stack) >= b.stacks.size()) return false;
  if (skip.size() < b.stacks.size()) skip.assign(b.stacks.size(), -1);
  int8_t& known = skip[static_cast<size_t>(stack)];
  if (known < 0) {
    bool any = false;
    ev.begin(item);
    for (const auto& s : statements_) {
      try {
        any = ev.test(*s.statement.condition);
      } catch (const EvalError&) {
        any = true;  // visited, so the failure is handled as the error mode says
      }
      if (any) break;
    }
    known = any ? 0 : 1;
  }
  return known == 1;
}

Status StatementGroup::run(flat::Batch& batch, ErrorMode mode, RunStats* stats, BatchEdits* edits) const {
  Evaluator ev(batch, memo_slots_, edits);
  Status result;
  std::vector<int8_t> skip;
  // The last answer of level-memoized group conditions, and the item of that level it is for.
  uint32_t answered_for = flat::kNone;
  bool answer = false;
  forEachItem(batch, context_, [&](const Item& item) {
    if (!result.isOk()) return;
    if (stack_conditions_only_ && noneApplies(ev, batch, item, skip)) return;
    if (conditions_level_) {
      const uint32_t at = *conditions_level_ == ContextKind::kResource ? item.resource
                          : *conditions_level_ == ContextKind::kScope  ? item.scope
                                                                       : item.profile;
      if (at != answered_for) {
        const uint64_t errors_before = stats->errors;
        bool failed = false;
        answer = conditions_.matches(ev, item, stats, mode == ErrorMode::kPropagate ? &failed : nullptr);
        if (failed) {
          result = Status::invalid("transform: " + stats->first_error);
          return;
        }
        // A failing condition is evaluated (and counted) again for the next item, as without the memo.
        answered_for = stats->errors == errors_before ? at : flat::kNone;
      }
      if (!answer) return;
    } else {
      bool failed = false;
      if (!conditions_.empty() &&
          !conditions_.matches(ev, item, stats, mode == ErrorMode::kPropagate ? &failed : nullptr)) {
        if (failed) result = Status::invalid("transform: " + stats->first_error);
        return;
      }
    }
    ev.begin(item);
    for (const auto& s : statements_) {
      try {
        ev.execute(s.statement);
      } catch (const EvalError& e) {
        stats->record(s.text, e);
        if (mode == ErrorMode::kPropagate) {
          result = Status::invalid("transform: " + stats->first_error);
          break;
        }
      }
    }
    ev.end();
    if (edits && edits->after_item && result.isOk()) result = edits->after_item(batch);
  });
  return result;
}

}  // namespace proflow::ottl
