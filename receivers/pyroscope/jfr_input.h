// `format=jfr` uploads, as pyroscope-java sends them: a multipart/form-data body with the part `jfr`
// (the recording, required) and the optional part `labels` (a LabelsSnapshot protobuf mapping the
// contextId of each sample to dynamic labels), each gzip'd or not (told apart by magic bytes); or a
// raw body holding the JFR bytes. Converted by the JFR library (core/formats/jfr) into one OTLP profile
// per sample type, carrying the upload's resource attributes and Pyroscope's metric family.
#pragma once

#include <string_view>

#include "core/flat/flat_batch.h"
#include "core/util/status.h"
#include "receivers/pyroscope/ingest_converter.h"
#include "receivers/pyroscope/ingest_params.h"

namespace proflow::receivers::pyroscope {

// `sampleRate` (when sent) sets the CPU period to 1e9/sampleRate ns; otherwise the recording's own
// setting is used. `from` (when sent) and `until` set the profile time window; otherwise the
// recording's chunk times are kept. Per-sample timestamps always come from the recording.
// Errors: kInvalidArgument (no `jfr` part, a damaged recording: the parser's message with the offset,
// a malformed `labels` part), kPayloadTooLarge (a part over options.limits, raw or inflated).
Status convertJfrIngest(const IngestParams& params, std::string_view content_type, std::string_view body,
                        const ConvertOptions& options, flat::Batch* out);

// Pyroscope's metric family (`__name__`) of a JFR sample type: process_cpu, wall, memory, mutex or
// block (lock profiles are told apart by their period type); "" when Pyroscope has none.
std::string jfrMetricFor(std::string_view sample_type, std::string_view period_type);

}  // namespace proflow::receivers::pyroscope
