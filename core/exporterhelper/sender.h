// What an exporter implements on top of the exporter helper: one attempt to deliver one batch.
// Queueing, retries with backoff and jitter, per-attempt timeouts, draining on shutdown and the
// standard counters all come from ExporterHelper.
#pragma once

#include "core/model/batch.h"
#include "core/component/component.h"
#include "core/util/status.h"

namespace proflow::exporterhelper {

class Sender {
 public:
  virtual ~Sender() = default;
  // Connects, checks files, etc. Called once before any push().
  virtual Status start(Host& host) {
    (void)host;
    return Status::ok();
  }
  // One delivery attempt that must finish by `deadline`. Return a retryable status (kUnavailable,
  // kResourceExhausted, kDeadlineExceeded, ...) when trying again can help, with retryAfter() when
  // the peer said how long to wait; any other non-OK status drops the batch as failed.
  virtual Status push(const Batch& batch, Deadline deadline) = 0;
  // Called from another thread when shutdown's deadline passes while push() calls are still
  // running: they should give up now (returning any retryable status). Afterwards push() may
  // refuse at once. Without it an attempt in flight ends by its own deadline.
  virtual void cancel() {}
  // Called after the last push().
  virtual void shutdown() {}
};

}  // namespace proflow::exporterhelper
