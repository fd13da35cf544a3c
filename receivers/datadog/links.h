// Span links of Datadog samples. dd-trace profilers label samples with `span id` and `local root span
// id` (64-bit decimal, string or numeric labels) and, when endpoint collection is on, `trace endpoint`;
// a `trace id` label (decimal or hex, 64 or 128 bits) is rare. The pprof converter turns the span label
// into Link.span_id (the 8 big-endian bytes of the decimal: what the Datadog -> OTel span conversion
// yields, so a backend joins on it exactly) and a `trace id` label into Link.trace_id. Without one the
// trace id would be all zeros, which OTLP calls invalid, so it is derived here:
//
//   trace_id = 8 zero bytes || local root span id (big-endian); the span id when no root label
//
// That is Datadog's 64-bit trace id widened the way Datadog's own OTel conversion widens it, and for a
// trace that started in the profiled process with 64-bit ids the local root span id IS the trace id
// (the tracers give a new trace's root span the trace's id). For a trace continued from another
// service it is not the trace id but still groups the samples of one local request. The labels stay
// sample attributes (`span id`, `local root span id`, `trace endpoint`).
//
// The span id is also re-read from the labels with Datadog's meaning (decimal only): a 16-digit
// decimal id would otherwise be taken for hex by the generic parser.
#pragma once

#include "core/flat/flat_batch.h"

namespace proflow::receivers::datadog {

// Rewrites the links of the samples of `profiles` (a range of b->profiles): Datadog's span id, and the
// derived trace id where the trace id is zero. Returns how many samples got a derived trace id.
size_t deriveTraceIds(flat::Batch* b, flat::Range profiles);

}  // namespace proflow::receivers::datadog
