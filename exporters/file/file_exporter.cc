#include "exporters/file/file_exporter.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

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

FileExporter::FileExporter(const CreateSettings& settings, FileExporterConfig config, std::unique_ptr<Encoder> encoder,
                           DataSync data_sync)
    : settings_(settings),
      config_(std::move(config)),
      encoder_(std::move(encoder)),
      file_(config_.path, policyFrom(config_)),
      data_sync_(std::move(data_sync)) {
  if (encoder_->filePerGroup())
    dir_ = std::make_unique<GroupDirectory>(config_.path, std::string(encoder_->extension()), data_sync_);
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
  uint64_t written;
  {
    // Held for the write only: it keeps records whole and in order, and costs a copy to the page cache.
    std::lock_guard lock(mu_);
    if (!running_) return Status::unavailable("file exporter " + settings_.id.str() + " is not running");
    Status s = file_.write(encoded);
    if (!s.isOk()) return s;
    dirty_ = true;
    *bytes = encoded.size();
    written = ++written_;
  }
  return config_.flush_interval.zero() ? syncThrough(written) : Status::ok();
}

// Group commit: an fdatasync covers every record written before it began, so writers append while
// one sync runs and the next sync covers all of them, instead of each waiting for the writer lock
// behind every other writer's sync. A rotation fsyncs the file it closes, so a record written before
// it is on disk once rotate() is done; the duplicated descriptor below is then the new file's.
Status FileExporter::syncThrough(uint64_t written) {
  std::lock_guard commit(commit_mu_);
  if (synced_ >= written) return Status::ok();
  uint64_t target;
  int fd;
  {
    std::lock_guard lock(mu_);
    target = written_;
    fd = file_.duplicateFd();
  }
  if (fd < 0) return Status::ok();  // closed by shutdown(), whose close() fsyncs the file
  // EINVAL: the target (a pipe or /dev/...) cannot be synced; nothing is lost by skipping it.
  const int rc = data_sync_(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0 && err != EINVAL) return fileError("cannot sync", config_.path, err);
  synced_ = target;
  return Status::ok();
}

Status FileExporter::writeGroups(const Batch& batch, size_t* bytes) {
  std::vector<EncodedGroup> groups;
  if (Status s = encoder_->encodeGroups(batch, &groups); !s.isOk()) return s;
  const bool sync = config_.flush_interval.zero();
  // Files are written (and synced) outside the lock, in parallel with other writers; only the
  // renames into place, which number the files, are serialized.
  std::vector<std::string> temps;
  Status s;
  for (const auto& g : groups) {
    if (s = dir_->writeTemp(g.data, sync, &temps.emplace_back()); !s.isOk()) {
      temps.pop_back();
      break;
    }
  }
  size_t published = 0, unused = 0;  // temps[unused..] are discarded
  if (s.isOk()) {
    std::lock_guard lock(mu_);
    if (!running_) s = Status::unavailable("file exporter " + settings_.id.str() + " is not running");
    // Files renamed before a failure stay: each is complete, and the batch is reported failed.
    for (; s.isOk() && published < temps.size(); ++published) {
      std::string path;
      if (s = dir_->publish(temps[published], groups[published].service_name, sync, &path); !s.isOk()) {
        unused = published + 1;  // publish() removed the one it failed on
        break;
      }
      *bytes += groups[published].data.size();
      dirty_ = true;
    }
  }
  unused = std::max(unused, published);
  for (size_t i = unused; i < temps.size(); ++i) dir_->discard(temps[i]);
  if (sync && published > 0) {
    if (Status d = dir_->syncDirectory(); s.isOk()) s = d;
  }
  return s;
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
  if (data_sync_(fd) != 0 && settings_.logger)
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
