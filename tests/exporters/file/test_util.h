// Shared set-up of the file exporter tests: settings with real telemetry and a quiet logger.
#pragma once

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>

#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

#include "core/component/factory.h"
#include "core/telemetry/metrics.h"
#include "exporters/file/file_exporter.h"
#include "tests/support/stand_ins.h"

namespace proflow::exporters::file {

using ::proflow::testing::NullHost;

struct Harness {
  telemetry::MetricsRegistry registry;
  telemetry::ComponentTelemetry telemetry{registry, ComponentKind::kExporter, "file"};
  NullHost host;

  CreateSettings settings() {
    CreateSettings s;
    s.id = {"file", ""};
    s.kind = ComponentKind::kExporter;
    s.logger = std::make_shared<spdlog::logger>("test", std::make_shared<spdlog::sinks::null_sink_mt>());
    s.telemetry = &telemetry;
    s.runtime = nullptr;
    return s;
  }

  std::unique_ptr<FileExporter> make(const FileExporterConfig& c) {
    return std::make_unique<FileExporter>(settings(), c, makeEncoder(c.format));
  }

  double metric(const std::string& name) { return registry.value(name, {{"exporter", "file"}}); }
};

// A data sync whose first call is held until release(): a writer stuck in a slow fdatasync.
class HeldFirstSync {
 public:
  DataSync fn() {
    return [this](int fd) {
      std::unique_lock lock(mu_);
      if (++calls_ == 1) {
        cv_.notify_all();
        cv_.wait(lock, [&] { return released_; });
      }
      return ::fdatasync(fd);
    };
  }
  // True once the first sync started (and is being held).
  bool waitUntilHeld() {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(20), [&] { return calls_ >= 1; });
  }
  void release() {
    std::lock_guard lock(mu_);
    released_ = true;
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int calls_ = 0;
  bool released_ = false;
};

}  // namespace proflow::exporters::file
