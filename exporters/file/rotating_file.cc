#include "exporters/file/rotating_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

namespace proflow::exporters::file {
namespace fs = std::filesystem;
namespace {

constexpr size_t kTimestampLength = 23;  // 2006-01-02T15-04-05.000

struct PathParts {
  fs::path dir;
  std::string stem;  // file name without extension
  std::string ext;   // ".jsonl", or "" when there is none
};

PathParts splitPath(const std::string& path) {
  fs::path p(path);
  return {p.parent_path(), p.stem().string(), p.extension().string()};
}

bool isTimestamp(std::string_view s) {
  if (s.size() != kTimestampLength) return false;
  static constexpr std::string_view kShape = "dddd-dd-ddTdd-dd-dd.ddd";
  for (size_t i = 0; i < s.size(); ++i) {
    if (kShape[i] == 'd' ? !std::isdigit(static_cast<unsigned char>(s[i])) : s[i] != kShape[i]) return false;
  }
  return true;
}

}  // namespace

Status fileError(const std::string& what, const std::string& path, int err) {
  std::string msg = what + " '" + path + "': " + std::strerror(err);
  if (err == ENOSPC || err == EDQUOT) return Status::unavailable(msg + " (disk full; retry later)");
  return Status::internal(msg);
}

RotatingFile::RotatingFile(std::string path, RotationPolicy policy) : path_(std::move(path)), policy_(policy) {}

RotatingFile::~RotatingFile() { (void)close(); }

Status RotatingFile::open() {
  if (fd_ >= 0) return Status::ok();
  fs::path parent = fs::path(path_).parent_path();
  if (!parent.empty()) {
    std::error_code ec;
    fs::create_directories(parent, ec);
    if (ec) return Status::internal("cannot create directory '" + parent.string() + "': " + ec.message());
  }
  int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return fileError("cannot open for writing", path_, errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return fileError("cannot stat", path_, err);
  }
  fd_ = fd;
  size_ = static_cast<uint64_t>(st.st_size);
  return Status::ok();
}

Status RotatingFile::writeAll(std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd_, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return fileError("cannot write", path_, errno);
    }
    if (n == 0) return fileError("cannot write", path_, EIO);
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Status::ok();
}

Status RotatingFile::write(std::string_view record) {
  if (fd_ < 0) return Status::unavailable("file '" + path_ + "' is not open");
  if (policy_.max_bytes > 0 && size_ > 0 && size_ + record.size() > policy_.max_bytes) {
    if (Status s = rotate(); !s.isOk()) return s;
  }
  Status s = writeAll(record);
  if (!s.isOk()) {
    // Cut a partly written record off again: a torn record would make every later record of a
    // length-prefixed file unreadable. Fails harmlessly on devices that cannot be truncated.
    (void)::ftruncate(fd_, static_cast<off_t>(size_));
    return s;
  }
  size_ += record.size();
  return Status::ok();
}

std::string RotatingFile::backupName(const std::string& path, std::chrono::system_clock::time_point t) {
  using namespace std::chrono;
  const auto ms = duration_cast<milliseconds>(t.time_since_epoch()).count();
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[80];  // room for any int the compiler can imagine in each field
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d-%02d-%02d.%03d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms % 1000));
  PathParts parts = splitPath(path);
  return (parts.dir / (parts.stem + "-" + buf + parts.ext)).string();
}

Status RotatingFile::rotate() {
  // Two rotations in one millisecond would collide; step the name forward instead, which keeps
  // names sorting in rotation order.
  auto t = std::chrono::system_clock::now();
  if (t <= last_backup_) t = last_backup_ + std::chrono::milliseconds(1);
  std::string target = backupName(path_, t);
  while (fs::exists(target)) {
    t += std::chrono::milliseconds(1);
    target = backupName(path_, t);
  }
  if (Status s = close(); !s.isOk()) return s;
  if (::rename(path_.c_str(), target.c_str()) != 0) {
    int err = errno;
    (void)open();  // keep writing to the old file rather than stopping
    return fileError("cannot rotate to '" + target + "'", path_, err);
  }
  last_backup_ = t;
  pruneBackups();
  return open();
}

std::vector<std::string> RotatingFile::backups() const {
  PathParts parts = splitPath(path_);
  const std::string prefix = parts.stem + "-";
  std::vector<std::string> out;
  std::error_code ec;
  fs::path dir = parts.dir.empty() ? fs::path(".") : parts.dir;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.size() != prefix.size() + kTimestampLength + parts.ext.size()) continue;
    if (!name.starts_with(prefix) || !name.ends_with(parts.ext)) continue;
    if (!isTimestamp(std::string_view(name).substr(prefix.size(), kTimestampLength))) continue;
    out.push_back((parts.dir / name).string());
  }
  std::sort(out.begin(), out.end());  // the timestamp format sorts chronologically
  return out;
}

void RotatingFile::pruneBackups() {
  if (policy_.max_backups == 0) return;
  auto all = backups();
  if (all.size() <= policy_.max_backups) return;
  for (size_t i = 0; i < all.size() - policy_.max_backups; ++i) {
    std::error_code ec;
    fs::remove(all[i], ec);
  }
}

Status RotatingFile::sync() {
  if (fd_ < 0) return Status::ok();
  if (::fdatasync(fd_) != 0 && errno != EINVAL) return fileError("cannot sync", path_, errno);
  return Status::ok();
}

int RotatingFile::duplicateFd() const { return fd_ >= 0 ? ::fcntl(fd_, F_DUPFD_CLOEXEC, 0) : -1; }

Status RotatingFile::close() {
  if (fd_ < 0) return Status::ok();
  Status s;
  // EINVAL: the target (a pipe or /dev/...) cannot be synced; nothing is lost by skipping it.
  if (::fsync(fd_) != 0 && errno != EINVAL) s = fileError("cannot fsync", path_, errno);
  if (::close(fd_) != 0 && s.isOk()) s = fileError("cannot close", path_, errno);
  fd_ = -1;
  return s;
}

}  // namespace proflow::exporters::file
