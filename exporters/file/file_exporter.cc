#include "exporters/file/file_exporter.h"

#include <unistd.h>

#include "core/runtime/thread_name.h"

namespace proflow::exporters::file {
namespace {

RotationPolicy policyFrom(const FileExporterConfig& c) {
  RotationPolicy p;
  if (c.rotation) {
    p.max_bytes = uint64_t{c.rotation->max_megabytes} << 20;
    p.max_backups = c.rotation->max_backups;
  }
  return p;
}

}  // namespace

FileExporter::FileExporter(const CreateSettings& settings, FileExporterConfig config, std::unique_ptr<Encoder> encoder)
    : settings_(settings),
      config_(std::move(config)),
      encoder_(std::move(encoder)),
      file_(config_.path, policyFrom(config_)) {
  if (encoder_->filePerGroup())
    dir_ = std::make_unique<GroupDirectory>(config_.path, std::string(encoder_->extension()));
}

FileExporter::~FileExporter() { shutdown(Deadline::clock::now()); }

Status FileExporter::start(Host&) {
  std::lock_guard lock(mu_);
  if (running_) return Status::ok();
  if (Status s = dir_ ? dir_->open() : file_.open(); !s.isOk())
    return Status(s.code(), "file exporter " + settings_.id.str() + ": " + s.message());
  running_ = true;
  if (!config_.flush_interval.zero())
    syncer_ = std::jthread([this](std::stop_token stop) { setThreadName("file-sync"); syncLoop(std::move(stop)); });
  return Status::ok();
}

void FileExporter::record(telemetry::Event event, const BatchCounts& counts) {
  if (settings_.telemetry) settings_.telemetry->record(event, counts);
}

Status FileExporter::writeRecord(const Batch& batch, size_t* bytes) {
  // Encoding is the expensive part and needs no lock, so concurrent callers encode in parallel.
  std::string encoded;
  if (Status s = encoder_->encode(batch, encoded); !s.isOk()) return s;
  std::lock_guard lock(mu_);
  if (!running_) return Status::unavailable("file exporter " + settings_.id.str() + " is not running");
  Status s = file_.write(encoded);
  if (!s.isOk()) return s;
  dirty_ = true;
  *bytes = encoded.size();
  return config_.flush_interval.zero() ? file_.sync() : Status::ok();
}

Status FileExporter::writeGroups(const Batch& batch, size_t* bytes) {
  std::vector<EncodedGroup> groups;
  if (Status s = encoder_->encodeGroups(batch, &groups); !s.isOk()) return s;
  std::lock_guard lock(mu_);
  if (!running_) return Status::unavailable("file exporter " + settings_.id.str() + " is not running");
  // Files written before a failure stay: each is complete, and the batch is reported failed.
  for (const auto& g : groups) {
    std::string path;
    if (Status s = dir_->write(g.service_name, g.data, config_.flush_interval.zero(), &path); !s.isOk()) return s;
    *bytes += g.data.size();
    dirty_ = true;
  }
  return Status::ok();
}

Status FileExporter::consume(Batch batch) {
  const BatchCounts counts = batch.counts();
  size_t bytes = 0;
  Status s = dir_ ? writeGroups(batch, &bytes) : writeRecord(batch, &bytes);
  if (settings_.telemetry && bytes > 0) settings_.telemetry->bytesOut(bytes);
  if (!s.isOk()) {
    record(telemetry::Event::kFailed, counts);
    if (settings_.logger) settings_.logger->error("file exporter {}: {}", settings_.id.str(), s.message());
    return s;
  }
  record(telemetry::Event::kSent, counts);
  return Status::ok();
}

void FileExporter::syncNow() {
  int fd;
  std::vector<std::string> files;
  {
    std::lock_guard lock(mu_);
    if (!dirty_) return;
    dirty_ = false;
    if (dir_) files = dir_->takePending();
    fd = dir_ ? -1 : file_.duplicateFd();
  }
  if (dir_) {
    // GroupDirectory::syncFiles only reads dir_'s immutable path, so no lock is needed.
    if (Status s = dir_->syncFiles(files); !s.isOk() && settings_.logger)
      settings_.logger->warn("file exporter {}: {}", settings_.id.str(), s.message());
    return;
  }
  if (fd < 0) return;
  // Outside the writer lock: a slow disk delays durability, not the pipeline.
  if (::fdatasync(fd) != 0 && settings_.logger)
    settings_.logger->warn("file exporter {}: fdatasync of '{}' failed", settings_.id.str(), config_.path);
  ::close(fd);
}

void FileExporter::syncLoop(std::stop_token stop) {
  const auto interval = config_.flush_interval.value;
  while (!stop.stop_requested()) {
    std::unique_lock lock(sync_mu_);
    sync_cv_.wait_for(lock, stop, interval, [] { return false; });
    lock.unlock();
    if (!stop.stop_requested()) syncNow();
  }
}

void FileExporter::shutdown(Deadline) {
  // Writes are synchronous, so there is nothing queued to drain: stop the syncer, then fsync + close.
  if (syncer_.joinable()) {
    syncer_.request_stop();
    syncer_.join();
  }
  std::lock_guard lock(mu_);
  if (!running_) return;
  running_ = false;
  if (dir_) {
    // Renamed files not yet synced by the syncer: make them durable before we report stopped.
    if (Status s = dir_->syncFiles(dir_->takePending()); !s.isOk() && settings_.logger)
      settings_.logger->error("file exporter {}: {}", settings_.id.str(), s.message());
    return;
  }
  if (Status s = file_.close(); !s.isOk() && settings_.logger)
    settings_.logger->error("file exporter {}: {}", settings_.id.str(), s.message());
}

}  // namespace proflow::exporters::file
