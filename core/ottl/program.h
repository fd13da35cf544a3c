// The public face of OTTL for components: statement groups (what `transform` runs) and condition
// sets (what `filter` drops by and a routing connector routes by), compiled at config load and run
// over flat batches.
//
//   auto group = ottl::StatementGroup::compile(std::nullopt, {}, {"set(resource.attributes[\"a\"], \"b\")"}, &errors);
//   Status s = group->run(batch, ottl::ErrorMode::kIgnore, &stats);
//
//   auto routes = ottl::ConditionSet::compile(ottl::ContextKind::kResource, {"resource.attributes[\"tenant\"] == \"a\""}, &errors);
//   std::vector<bool> hit = routes->matchResources(batch, &stats);  // one answer per resource
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/flat/flat_batch.h"
#include "core/ottl/ast.h"
#include "core/ottl/evaluator.h"
#include "core/ottl/paths.h"
#include "core/util/status.h"

namespace proflow::ottl {

// How a failing statement or condition is handled (the Collector's error_mode).
enum class ErrorMode { kIgnore, kSilent, kPropagate };
std::optional<ErrorMode> parseErrorMode(std::string_view s);

// A statement or condition that did not compile: `index` is its position in its list, `column`
// the 1-based column inside its text.
struct CompileError {
  size_t index = 0;
  bool in_conditions = false;
  int column = 0;
  std::string message;
};

// What a run met: failing statements/conditions (skipped under ignore/silent) and the first message.
struct RunStats {
  uint64_t errors = 0;
  std::string first_error;
  void record(const std::string& text, const EvalError& e);
};

// Calls fn(item) for every item of `context` in the batch, in order.
template <class Fn>
void forEachItem(const flat::Batch& b, ContextKind context, Fn&& fn) {
  for (uint32_t r = 0; r < b.resources.size(); ++r) {
    if (context == ContextKind::kResource) {
      fn(Item{r});
      continue;
    }
    b.forEachScope(b.resources[r], [&](uint32_t s) {
      if (context == ContextKind::kScope) return fn(Item{r, s});
      const flat::Range profiles = b.scopes[s].profiles;
      for (uint32_t p = profiles.begin; p < profiles.end(); ++p) {
        if (context == ContextKind::kProfile) {
          fn(Item{r, s, p});
          continue;
        }
        const flat::Range rows = b.profiles[p].samples;
        for (uint32_t row = rows.begin; row < rows.end(); ++row) fn(Item{r, s, p, row});
      }
    });
  }
}

// Conditions joined by `or`.
class ConditionSet {
 public:
  // `context`: nullopt infers it from the paths. nullopt (with `errors` filled) when any fails.
  static std::optional<ConditionSet> compile(std::optional<ContextKind> context, const std::vector<std::string>& conditions,
                                             std::vector<CompileError>* errors);

  bool empty() const { return conditions_.empty(); }
  ContextKind context() const { return context_; }
  int memoSlots() const { return memo_slots_; }

  // True when a condition holds for `item`. A failing condition counts as false and is recorded;
  // `propagate` then stops at it (returns false with *failed set).
  bool matches(Evaluator& ev, const Item& item, RunStats* stats, bool* failed = nullptr) const;
  // One answer per resource of the batch (a resource-context set): a routing connector's question.
  std::vector<bool> matchResources(const flat::Batch& b, RunStats* stats) const;

 private:
  struct Compiled {
    ExprPtr expr;
    std::string text;
  };
  ContextKind context_ = ContextKind::kResource;
  int memo_slots_ = 0;
  std::vector<Compiled> conditions_;
  friend class StatementGroup;
};

// Statements run at one context, on the items the group's conditions select (all when none).
class StatementGroup {
 public:
  static std::optional<StatementGroup> compile(std::optional<ContextKind> context,
                                               const std::vector<std::string>& conditions,
                                               const std::vector<std::string>& statements,
                                               std::vector<CompileError>* errors);

  ContextKind context() const { return context_; }
  size_t size() const { return statements_.size(); }

  // Runs over `batch` in place. Under propagate the first failure stops the run and is returned
  // (INVALID_ARGUMENT); otherwise failing statements are skipped for that item and counted. Groups
  // run over the same batch share `edits` (null: this run's own).
  Status run(flat::Batch& batch, ErrorMode mode, RunStats* stats, BatchEdits* edits = nullptr) const;

 private:
  struct Compiled {
    Statement statement;
    std::string text;
  };
  // True when no statement can apply to the sample (`item`): every statement's condition depends
  // on the stack alone and is false for its stack. Answered once per stack (`skip`).
  bool noneApplies(Evaluator& ev, const flat::Batch& b, const Item& item, std::vector<int8_t>& skip) const;

  ContextKind context_ = ContextKind::kResource;
  int memo_slots_ = 0;
  ConditionSet conditions_;
  std::vector<Compiled> statements_;
  // Sample context, no group condition, and every statement's `where` reads only frame-only
  // AnyFrame calls: samples whose stack none of them holds for are skipped without being visited.
  bool stack_conditions_only_ = false;
  // The group's conditions read only a level above its context (say the resource, in a sample
  // group) and no statement writes there: they are answered once per item of that level.
  std::optional<ContextKind> conditions_level_;
};

}  // namespace proflow::ottl
