#include "exporters/file/group_directory.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <ctime>
#include <filesystem>

#include "exporters/file/rotating_file.h"  // fileError

namespace proflow::exporters::file {
namespace fs = std::filesystem;
namespace {

constexpr size_t kMaxServiceChars = 100;  // keeps names far below NAME_MAX (255)
constexpr int kMaxNameAttempts = 1000;

std::string sanitize(std::string_view service) {
  std::string out;
  for (char c : service.substr(0, kMaxServiceChars)) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                      c == '_' || c == '-';
    out += safe ? c : '_';
  }
  // A leading dot would hide the file (and collide with our temporary names).
  if (out.empty() || out[0] == '.') out.insert(0, out.empty() ? "unknown" : "_");
  return out;
}

Status fsyncPath(const std::string& path, int flags) {
  int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return fileError("cannot open for sync", path, errno);
  const int rc = (flags & O_DIRECTORY) ? ::fsync(fd) : ::fdatasync(fd);
  const int err = errno;
  ::close(fd);
  return rc == 0 ? Status::ok() : fileError("cannot sync", path, err);
}

// rename() that never replaces an existing file: a restarted exporter restarts its sequence, so a
// name from an earlier run in the same second must not be overwritten.
int renameNoReplace(const std::string& from, const std::string& to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return -1;
  // File systems without RENAME_NOREPLACE: link() also refuses an existing target.
  if (::link(from.c_str(), to.c_str()) != 0) return -1;
  ::unlink(from.c_str());
  return 0;
}

}  // namespace

GroupDirectory::GroupDirectory(std::string dir, std::string extension, DataSync data_sync)
    : dir_(std::move(dir)), extension_(std::move(extension)), data_sync_(std::move(data_sync)) {}

Status GroupDirectory::open() {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return Status::internal("cannot create directory '" + dir_ + "': " + ec.message());
  if (!fs::is_directory(dir_, ec)) return Status::internal("'" + dir_ + "' is not a directory (format pprof)");
  return Status::ok();
}

std::string GroupDirectory::fileName(std::string_view service, std::chrono::system_clock::time_point t, uint64_t seq,
                                     std::string_view extension) {
  const std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[96];  // room for any int the compiler can imagine in each field
  std::snprintf(buf, sizeof buf, "-%04d%02d%02dT%02d%02d%02d-%06llu", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<unsigned long long>(seq));
  return sanitize(service) + buf + std::string(extension);
}

Status GroupDirectory::writeTemp(std::string_view data, bool sync, std::string* tmp) const {
  // Hidden (readers globbing *.pb.gz never pick up a file being written) and unique across the
  // exporters of this process and other processes sharing the directory.
  static std::atomic<uint64_t> temp_counter{0};
  *tmp = (fs::path(dir_) / (".proflow-" + std::to_string(::getpid()) + "-" + std::to_string(++temp_counter) +
                            extension_ + ".tmp")).string();
  int fd = ::open(tmp->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return fileError("cannot create", *tmp, errno);
  Status s;
  while (!data.empty() && s.isOk()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) s = fileError("cannot write", *tmp, n < 0 ? errno : EIO);
    else data.remove_prefix(static_cast<size_t>(n));
  }
  if (s.isOk() && sync && data_sync_(fd) != 0) s = fileError("cannot sync", *tmp, errno);
  if (::close(fd) != 0 && s.isOk()) s = fileError("cannot close", *tmp, errno);
  if (!s.isOk()) discard(*tmp);
  return s;
}

Status GroupDirectory::publish(const std::string& tmp, std::string_view service, bool sync, std::string* path) {
  const auto now = std::chrono::system_clock::now();
  for (int attempt = 0; attempt < kMaxNameAttempts; ++attempt) {
    std::string target = (fs::path(dir_) / fileName(service, now, ++seq_, extension_)).string();
    if (renameNoReplace(tmp, target) == 0) {
      if (!sync) pending_.push_back(target);
      *path = std::move(target);
      return Status::ok();
    }
    if (errno != EEXIST) {
      const int err = errno;
      discard(tmp);
      return fileError("cannot rename into place", target, err);
    }
  }
  discard(tmp);
  return Status::internal("no free file name in '" + dir_ + "' after " + std::to_string(kMaxNameAttempts) + " tries");
}

void GroupDirectory::discard(const std::string& tmp) const { ::unlink(tmp.c_str()); }

Status GroupDirectory::syncDirectory() const { return fsyncPath(dir_, O_RDONLY | O_DIRECTORY); }

std::vector<std::string> GroupDirectory::takePending() {
  std::vector<std::string> out;
  out.swap(pending_);
  return out;
}

Status GroupDirectory::syncFiles(const std::vector<std::string>& files) const {
  Status first;
  for (const auto& f : files) {
    // A file a reader already moved away is not an error worth reporting.
    if (Status s = fsyncPath(f, O_RDONLY); !s.isOk() && first.isOk() && fs::exists(f)) first = s;
  }
  if (files.empty()) return first;
  if (Status s = syncDirectory(); !s.isOk() && first.isOk()) first = s;
  return first;
}

}  // namespace proflow::exporters::file
