// The `perf` receiver: POST /v1/perf and/or a directory of finished recordings (perf.data or
// `perf script` text), decoded by core/formats/perf on the recording receiver of
// core/receiverhelper.
#pragma once

#include <memory>

#include "core/component/factory.h"
#include "core/receiverhelper/recording_receiver.h"
#include "receivers/perf/config.h"

namespace proflow::receivers::perf {

std::unique_ptr<receiverhelper::RecordingReceiver> makePerfReceiver(const CreateSettings& settings,
                                                                    const PerfReceiverConfig& config,
                                                                    ConsumerPtr next);

}  // namespace proflow::receivers::perf
