// What one batch adds to the profilemetrics series, computed from the flat batch without any lock:
// per service and sample type the sum of the sample values, per function its self value (the
// function is the leaf frame) and inclusive value (it is anywhere in the stack, counted once per
// sample), and for each the heaviest sample linked to a trace as an exemplar candidate.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/flat/flat_batch.h"

namespace proflow::processors::profilemetrics {

// a + b for b >= 0, stopping at INT64_MAX (hostile values must not wrap a counter around).
inline int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}

struct ExemplarCandidate {
  std::string trace_id, span_id, profile_id;  // lower-case hex; profile_id "" when unset
  int64_t value = 0;                          // the sample's value, in the profile's unit
  std::optional<double> timestamp;            // Unix seconds: the sample's time, else the profile's

  bool valid() const { return !trace_id.empty(); }
};

struct FunctionDigest {
  int64_t self = 0, inclusive = 0;
  ExemplarCandidate self_exemplar, inclusive_exemplar;
};

struct KeyDigest {
  std::string service, type, unit;  // service capped to the label length; type/unit as sent
  int64_t total = 0;
  uint64_t samples = 0;
  ExemplarCandidate exemplar;
  std::unordered_map<std::string, FunctionDigest> functions;  // by (capped) function name
};

struct DigestOptions {
  size_t max_label_length = 128;
  bool functions = true;  // false: totals only (top_n 0)
};

struct Digest {
  std::vector<KeyDigest> keys;
  uint64_t truncated_labels = 0;  // service or function names cut to max_label_length
};

// Samples with a negative value are left out (a counter only grows); a sample without values
// counts 1 per timestamp, as OTLP defines. Resources without service.name are "unknown_service".
Digest digestBatch(const flat::Batch& batch, const DigestOptions& options);

// The name a frame is counted under: the function's name (else its system name); a location
// without lines is "[unsymbolized <file name of its mapping>]" (or "[unsymbolized]").
std::string frameName(const flat::Batch& batch, int32_t function_index);
std::string unsymbolizedName(const flat::Batch& batch, int32_t mapping_index);

}  // namespace proflow::processors::profilemetrics
