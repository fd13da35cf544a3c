// A parsed upload (intake.h) -> one flat batch: every profile attachment decoded and merged under one
// resource built from the tags (tags.h).
//
// Attachments are told apart by content, not name: gzip or zstd is inflated first (bounded), then a
// JFR recording ("FLR\0") goes through the JFR converter (core/formats/jfr) and anything else through
// the pprof converter (core/formats/pprof: one OTLP profile per sample type, labels as sample
// attributes, span labels as links). Attachments that are not profiles by name (`*.json` such as Go's
// metrics.json or code-provenance.json, `*.trace`, `*.txt`, `*.log`) are skipped. A profile with no
// time (pprof time_nanos inside 1970) takes the upload's start; without a duration, end - start.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

#include "core/compression/compression.h"
#include "core/flat/flat_batch.h"
#include "core/util/status.h"
#include "receivers/datadog/intake.h"

namespace proflow::receivers::datadog {

inline constexpr std::string_view kScopeName = "proflow.receiver.datadog";

struct ConvertOptions {
  compression::Limits limits;  // every attachment's inflation (absolute and ratio)
  // Asked (optional) for the total bytes the upload will hold beside its body before they are
  // allocated (the receiver's in-flight claim). Its refusal is returned as is.
  std::function<Status(size_t bytes)> reserve_memory;
  // JFR attachments: merge JVM-generated class names (core/formats/jfr/generated_names.h).
  bool merge_generated_names = true;
};

struct ConvertStats {
  size_t attachments = 0;  // decoded as profiles
  size_t skipped = 0;      // not profiles by name
  size_t derived_trace_ids = 0;
};

// Errors: kInvalidArgument naming the attachment ("attachment 'cpu.pprof': pprof: ..."), kPayloadTooLarge
// (a limit), reserve_memory's refusal; an upload without any profile attachment is kInvalidArgument.
Status convertIntake(const Intake& intake, const Tags& header_tags, const ConvertOptions& options, flat::Batch* out,
                     ConvertStats* stats = nullptr);

}  // namespace proflow::receivers::datadog
