#include "core/receiverhelper/directory_watcher.h"

#include "core/runtime/thread_name.h"
#include "core/util/regular_file.h"

namespace proflow {

namespace fs = std::filesystem;

namespace {
// A recording that is still unreadable this long after its last change is given up on.
constexpr std::chrono::seconds kGiveUpAfter{60};

// Reads the regular file `file` itself (a symbolic link is not followed, nor is anything but a
// regular file opened), at most `max_bytes`: a file that grew past them since it was listed is
// refused as too large, never read whole.
Status readRecording(const fs::path& file, uint64_t max_bytes, std::string* out) {
  Status s = readRegularFile(file.string(), {.max_bytes = max_bytes, .follow_symlinks = false}, out);
  if (s.code() == StatusCode::kPayloadTooLarge) return Status::tooLarge(s.message() + " (max_request_body_size)");
  return s;
}

}  // namespace

void DirectoryWatchConfig::validate(config::ValidationContext& ctx) const {
  if (path.empty()) ctx.error("directory.path", "required");
  if (after != "delete" && after != "move") ctx.error("directory.after", "must be delete or move, got '" + after + "'");
  if (after == "move" && move_to.empty()) ctx.error("directory.move_to", "required with after: move");
  if (poll_interval.value.count() <= 0) ctx.error("directory.poll_interval", "must be greater than 0");
}

DirectoryWatcher::DirectoryWatcher(const CreateSettings& settings, const DirectoryWatchConfig& config,
                                   uint64_t max_bytes, std::string kind, Ingest ingest)
    : settings_(settings),
      dir_(config),
      max_bytes_(max_bytes),
      kind_(std::move(kind)),
      ingest_(std::move(ingest)),
      files_done_(settings.telemetry->counter(kind_ + "_files_ingested_total", "recordings taken from the directory")),
      files_failed_(settings.telemetry->counter(kind_ + "_files_failed_total", "recordings renamed to .failed")) {}

DirectoryWatcher::~DirectoryWatcher() { stop(); }

Status DirectoryWatcher::start() {
  std::error_code ec;
  if (!fs::is_directory(dir_.path, ec))
    return Status::unavailable(kind_ + " directory '" + dir_.path + "' does not exist or is not a directory");
  if (dir_.after == "move") {
    fs::create_directories(dir_.move_to, ec);
    if (ec) return Status::unavailable("cannot create move_to directory '" + dir_.move_to + "': " + ec.message());
  }
  thread_ = std::thread([this] { setThreadName("dir-", kind_); run(); });
  settings_.logger->info("watching {} for finished *{} recordings", dir_.path, dir_.suffix);
  return Status::ok();
}

void DirectoryWatcher::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void DirectoryWatcher::run() {
  for (;;) {
    scanOnce();
    std::unique_lock lock(mu_);
    if (cv_.wait_for(lock, dir_.poll_interval.value, [&] { return stopping_; })) return;
  }
}

void DirectoryWatcher::scanOnce() {
  std::error_code ec;
  const auto now = fs::file_time_type::clock::now();
  for (const auto& entry : fs::directory_iterator(dir_.path, ec)) {
    {
      std::lock_guard lock(mu_);
      if (stopping_) return;
    }
    const auto& p = entry.path();
    if (!p.filename().string().ends_with(dir_.suffix)) continue;
    // The entry itself: a symbolic link (to a secret, a device, a huge file elsewhere) is refused
    // and moved aside, never followed; other non-regular entries (directories, FIFOs) are left.
    const fs::file_status st = entry.symlink_status(ec);
    if (ec) continue;
    if (fs::is_symlink(st)) {
      markFailed(p, Status::invalid("is a symbolic link (not followed)"));
      continue;
    }
    if (!fs::is_regular_file(st)) continue;
    auto mtime = entry.last_write_time(ec);
    if (ec) continue;
    auto age = std::chrono::duration_cast<std::chrono::seconds>(now - mtime);
    if (now - mtime < dir_.min_age.value) continue;  // may still be written
    handle(p, age);
  }
}

void DirectoryWatcher::handle(const fs::path& file, std::chrono::seconds age) {
  std::string data;
  if (Status read = readRecording(file, max_bytes_, &data); !read.isOk()) {
    if (read.retryable())  // e.g. removed meanwhile: looked at again at the next poll
      settings_.logger->debug("{}: {}", file.string(), read.message());
    else
      markFailed(file, read);
    return;
  }
  settings_.telemetry->bytesIn(data.size());
  Status s = ingest_(data, file);
  if (s.isOk()) {
    finish(file);
  } else if (s.retryable()) {
    settings_.logger->warn("{}: pipeline refused ({}); retrying at the next poll", file.string(), s.message());
  } else if (age >= kGiveUpAfter) {
    markFailed(file, s);
  } else {
    settings_.logger->debug("{}: not readable yet ({}); will look again", file.string(), s.message());
  }
}

void DirectoryWatcher::finish(const fs::path& file) {
  std::error_code ec;
  if (dir_.after == "move")
    fs::rename(file, fs::path(dir_.move_to) / file.filename(), ec);
  else
    fs::remove(file, ec);
  if (ec) settings_.logger->error("{}: delivered but could not {}: {}", file.string(), dir_.after, ec.message());
  files_done_.add();
}

void DirectoryWatcher::markFailed(const fs::path& file, const Status& why) {
  std::error_code ec;
  fs::path dest_dir = dir_.after == "move" ? fs::path(dir_.move_to) : file.parent_path();
  fs::rename(file, dest_dir / (file.filename().string() + ".failed"), ec);
  settings_.logger->error("{}: giving up: {}{}", file.string(), why.message(),
                          ec ? " (and could not rename it: " + ec.message() + ")" : "");
  files_failed_.add();
}

}  // namespace proflow
