#include "receivers/jfr/jfr_receiver.h"

#include <span>

#include "core/formats/jfr/flat_converter.h"

namespace proflow::receivers::jfr {

std::unique_ptr<receiverhelper::RecordingReceiver> makeJfrReceiver(const CreateSettings& settings,
                                                                   const JfrReceiverConfig& config, ConsumerPtr next) {
  receiverhelper::RecordingInputs inputs{"jfr", "/v1/jfr", config, std::nullopt, config.attributes};
  if (config.directory) inputs.directory = *config.directory;
  auto decode = [keep_original_payload = config.keep_original_payload,
                 keep_generated_names = config.keep_generated_names](const receiverhelper::Recording& recording,
                                                                     flat::Batch* out) {
    ::proflow::jfr::ConvertOptions options;
    options.keep_original_payload = keep_original_payload;
    options.merge_generated_names = !keep_generated_names;
    options.reserve_memory = recording.reserve_memory;
    const auto bytes =
        std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(recording.bytes.data()), recording.bytes.size());
    const ::proflow::jfr::ConvertResult r = ::proflow::jfr::convertToFlat(bytes, options, out);
    if (!r.refused.isOk()) return r.refused;
    // A damaged or unfinished recording is refused whole: the sender (or the directory watcher)
    // keeps the file.
    if (!r.ok) return Status::invalid("JFR: " + r.error.message);
    if (out->resources.empty()) return Status::invalid("JFR: no chunk in the input");
    return Status::ok();
  };
  return std::make_unique<receiverhelper::RecordingReceiver>(settings, std::move(inputs), std::move(decode),
                                                             std::move(next));
}

}  // namespace proflow::receivers::jfr
