#include "processors/resource_detection/proc_files.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace proflow::processors::resourcedetection {
namespace {

// procfs files report size 0, so read until EOF; the cap guards against a huge cmdline or mountinfo.
constexpr size_t kMaxFileBytes = 4 << 20;

}  // namespace

std::optional<std::string> readSmallFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string out;
  char buf[8192];
  while (out.size() < kMaxFileBytes) {
    ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n < 0) {
        ::close(fd);
        return std::nullopt;
      }
      break;
    }
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

std::string_view takeLine(std::string_view& text) {
  size_t nl = text.find('\n');
  std::string_view line = text.substr(0, nl);
  text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  return line;
}

std::optional<std::string> readLink(const std::string& path) {
  std::string buf(4096, '\0');
  ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size());
  if (n < 0 || static_cast<size_t>(n) >= buf.size()) return std::nullopt;
  buf.resize(static_cast<size_t>(n));
  return buf;
}

}  // namespace proflow::processors::resourcedetection
