// The `jfr` receiver: POST /v1/jfr and/or a directory of finished recordings, decoded by the JFR
// reader (core/formats/jfr) on the recording receiver of core/receiverhelper.
#pragma once

#include <memory>

#include "core/component/factory.h"
#include "core/receiverhelper/recording_receiver.h"
#include "receivers/jfr/config.h"

namespace proflow::receivers::jfr {

std::unique_ptr<receiverhelper::RecordingReceiver> makeJfrReceiver(const CreateSettings& settings,
                                                                   const JfrReceiverConfig& config, ConsumerPtr next);

}  // namespace proflow::receivers::jfr
