// Shared helpers of the OTTL tests: a small batch with known attributes, and one-line runners.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/flat/flat_batch.h"
#include "core/model/otlp_types.h"
#include "core/ottl/program.h"

namespace proflow::ottl::testing {

// One resource (service.name=api, inline; env=prod), one scope, one "cpu" profile with three
// samples: stacks [work, main] 10, [gc] 20, [work, main] 30; sample attribute thread=t1 on the first.
otlp::Request smallRequest();
flat::Batch smallBatch();
flat::Batch toFlat(const otlp::Request& r);
otlp::Request toProto(const flat::Batch& b);

// Compiles one group (context inferred when empty) and runs it; returns the run's status, or the
// compile errors as "col N: message" lines when it does not compile.
std::string run(flat::Batch& b, const std::vector<std::string>& statements, const std::string& context = "",
                const std::vector<std::string>& conditions = {}, ErrorMode mode = ErrorMode::kPropagate);

// The compile error of a single statement ("" when it compiles).
std::string compileError(const std::string& statement, const std::string& context = "");
// Evaluates a condition on every item of its context: one answer per item.
std::vector<bool> evalCondition(const flat::Batch& b, const std::string& condition, const std::string& context = "");

// Resource / profile / sample attribute as text ("<absent>" when missing).
std::string resourceAttr(const flat::Batch& b, const std::string& key, uint32_t r = 0);
std::string profileAttr(const flat::Batch& b, const std::string& key, uint32_t p = 0);
std::string sampleAttr(const flat::Batch& b, const std::string& key, uint32_t row);

}  // namespace proflow::ottl::testing
