#include "core/util/regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace proflow {
namespace {

Status errnoStatus(const char* what) { return Status::unavailable(std::string(what) + std::strerror(errno)); }

}  // namespace

Status readRegularFile(const std::string& path, const RegularFileRead& how, std::string* out) {
  out->clear();
  const int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (how.follow_symlinks ? 0 : O_NOFOLLOW);
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) {
    if (errno == ELOOP && !how.follow_symlinks) return Status::invalid("is a symbolic link (not followed)");
    return errnoStatus("cannot open: ");
  }
  struct stat st {};
  Status result;
  if (::fstat(fd, &st) != 0) {
    result = errnoStatus("cannot stat: ");
  } else if (!S_ISREG(st.st_mode)) {
    result = Status::invalid("is not a regular file");
  } else if (static_cast<uint64_t>(st.st_size) > how.max_bytes) {
    result = Status::tooLarge("file of " + std::to_string(st.st_size) + " bytes is larger than the " +
                              std::to_string(how.max_bytes) + " allowed");
  } else {
    out->resize(static_cast<size_t>(st.st_size));
    size_t got = 0;
    for (;;) {
      if (got == out->size()) {
        if (out->size() > how.max_bytes) break;  // grew past the limit while being read
        out->resize(std::min<uint64_t>(how.max_bytes + 1, out->size() + 65536));
        if (got == out->size()) break;
      }
      const ssize_t n = ::read(fd, out->data() + got, out->size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        result = errnoStatus("cannot read: ");
        break;
      }
      if (n == 0) break;
      got += static_cast<size_t>(n);
    }
    out->resize(got);
    if (result.isOk() && got > how.max_bytes)
      result = Status::tooLarge("file grew past the " + std::to_string(how.max_bytes) + " bytes allowed while it was read");
  }
  ::close(fd);
  if (!result.isOk()) out->clear();
  return result;
}

}  // namespace proflow
