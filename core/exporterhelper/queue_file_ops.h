// The system calls the persistent queue makes to write a batch, behind one interface so a test can
// stop the sequence after any one of them (a crash or power loss at that point) and check what a
// restart finds. Each call has the meaning and errno convention of the system call it is named after.
#pragma once

#include <sys/types.h>

#include <string>

namespace proflow::exporterhelper {

class QueueFileOps {
 public:
  virtual ~QueueFileOps() = default;
  virtual int open(const std::string& path, int flags, mode_t mode);
  virtual ssize_t write(int fd, const void* data, size_t size);
  virtual int fsync(int fd);
  virtual int close(int fd);
  virtual int rename(const std::string& from, const std::string& to);
  virtual int unlink(const std::string& path);
};

}  // namespace proflow::exporterhelper
