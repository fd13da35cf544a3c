#include "core/exporterhelper/queue_file_ops.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

namespace proflow::exporterhelper {

int QueueFileOps::open(const std::string& path, int flags, mode_t mode) { return ::open(path.c_str(), flags, mode); }
ssize_t QueueFileOps::write(int fd, const void* data, size_t size) { return ::write(fd, data, size); }
int QueueFileOps::fsync(int fd) { return ::fsync(fd); }
int QueueFileOps::close(int fd) { return ::close(fd); }
int QueueFileOps::rename(const std::string& from, const std::string& to) {
  return std::rename(from.c_str(), to.c_str());
}
int QueueFileOps::unlink(const std::string& path) { return ::unlink(path.c_str()); }

}  // namespace proflow::exporterhelper
