// A real debuginfod server (Debian's `debuginfod -F DIR`) on a loopback port for the duration of a
// test.
#pragma once

#include <sys/types.h>

#include <string>

namespace proflow::symbolize::testing {

class DebuginfodServer {
 public:
  // Serves the ELF files under `dir`; `work_dir` holds its database and log.
  DebuginfodServer(const std::string& dir, const std::string& work_dir);
  ~DebuginfodServer();
  DebuginfodServer(const DebuginfodServer&) = delete;
  DebuginfodServer& operator=(const DebuginfodServer&) = delete;

  // Waits until the server answers for `build_id` (its scan finished); false after ~30 s.
  bool waitFor(const std::string& build_id, const char* kind = "debuginfo");
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::string log() const;

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::string log_path_;
};

}  // namespace proflow::symbolize::testing
