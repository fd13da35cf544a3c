// A receiver of whole recordings, one file per request, for producers that write files (a JVM's
// JFR recordings, `perf record` output): `POST <path>` and/or a directory watched for finished
// files (core/receiverhelper/directory_watcher.h). It inflates gzip/zstd bodies within the listener's limits,
// accounts what decoding holds against the request's in-flight claim, adds the configured and the
// request's resource attributes, and hands the batch to the pipeline. The format is the decoder's.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/component/consumer.h"
#include "core/receiverhelper/directory_watcher.h"
#include "core/component/factory.h"
#include "core/flat/flat_batch.h"
#include "core/net/http_server.h"
#include "core/receiverhelper/http_listener.h"
#include "core/receiverhelper/pending_requests.h"

namespace proflow::receiverhelper {

// One recording to decode, already inflated.
struct Recording {
  std::string_view bytes;
  uint64_t end_time_unix_nano = 0;  // when its file was last written; 0 = unknown (HTTP)
  // Asked for the bytes decoding will hold (the recording included) before they are allocated;
  // its refusal is returned as is. Empty: no accounting (files).
  std::function<Status(size_t bytes)> reserve_memory;
};

// kInvalidArgument with the reason for what is not a (complete) recording, kPayloadTooLarge for
// what is over a decoder limit. A damaged recording is refused whole: nothing half-read is
// acknowledged.
using RecordingDecoder = std::function<Status(const Recording& recording, flat::Batch* out)>;

struct RecordingInputs {
  std::string kind;  // "jfr": counters <kind>_files_*, logs, the file attribute "<kind>.file.name"
  std::string path;  // "/v1/jfr"
  HttpListenerConfig listener;                    // endpoint "" = no HTTP
  std::optional<DirectoryWatchConfig> directory;  // absent = no directory
  std::map<std::string, std::string> attributes;  // resource attributes of every recording
};

class RecordingReceiver final : public Receiver {
 public:
  RecordingReceiver(const CreateSettings& settings, RecordingInputs inputs, RecordingDecoder decode,
                    ConsumerPtr next);
  ~RecordingReceiver() override;

  Status start(Host& host) override;
  void shutdown(Deadline deadline) override;
  int port() const { return server_ ? server_->port() : 0; }  // bound HTTP port (useful with port 0)

  // Decodes one recording (raw or gzip/zstd) into the pipeline; what the HTTP route and the
  // directory call. `extra`: resource attributes of this recording (the query, the file name). A
  // retryable status: the pipeline refused, try again later.
  Status ingest(std::string_view body, const std::multimap<std::string, std::string>& extra,
                uint64_t end_time_unix_nano, std::function<Status(size_t bytes)> reserve);

 private:
  void handlePost(net::HttpRequest&& req, net::Responder respond);

  CreateSettings settings_;
  RecordingInputs inputs_;
  RecordingDecoder decode_;
  ConsumerPtr next_;
  std::unique_ptr<net::HttpServer> server_;
  std::unique_ptr<DirectoryWatcher> watcher_;
  // Requests handed to the worker pool and not answered yet: they use this receiver, so shutdown
  // waits for them (their bodies are bounded by the listener's in-flight budget, not by a count).
  PendingRequests pending_;
};

}  // namespace proflow::receiverhelper
