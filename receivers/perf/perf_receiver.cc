#include "receivers/perf/perf_receiver.h"

#include "core/formats/perf/perf.h"

namespace proflow::receivers::perf {

std::unique_ptr<receiverhelper::RecordingReceiver> makePerfReceiver(const CreateSettings& settings,
                                                                    const PerfReceiverConfig& config,
                                                                    ConsumerPtr next) {
  receiverhelper::RecordingInputs inputs{"perf", "/v1/perf", config, std::nullopt, config.attributes};
  if (config.directory) inputs.directory = *config.directory;
  ::proflow::perf::Options options;
  options.keep_original_payload = config.keep_original_payload;
  options.limits.max_stack_depth = config.max_stack_depth;
  options.limits.max_samples = config.max_samples;
  telemetry::Counter& lost =
      settings.telemetry->counter("perf_lost_samples_total", "samples the kernel reported lost in received recordings");
  auto decode = [options, &lost](const receiverhelper::Recording& recording, flat::Batch* out) {
    ::proflow::perf::Options o = options;
    // Samples of a recording without a clock anchor end when its file was written (0 = now).
    o.end_time_unix_nano = recording.end_time_unix_nano;
    o.reserve_memory = recording.reserve_memory;
    ::proflow::perf::Result result;
    if (Status s = ::proflow::perf::perfToFlat(recording.bytes, o, out, &result); !s.isOk()) return s;
    if (result.lost > 0) lost.add(result.lost);
    return Status::ok();
  };
  return std::make_unique<receiverhelper::RecordingReceiver>(settings, std::move(inputs), std::move(decode),
                                                             std::move(next));
}

}  // namespace proflow::receivers::perf
