// The Go test program (testdata/pprofapp, its own module with no dependencies): built once per test
// process, offline (tests/support/go_programs.h), then run to write profiles or to serve net/http/pprof.
#pragma once

#include <sys/types.h>

#include <string>

namespace proflow::testing {

// Path of the built pprofapp binary; "" with `error` set when go is missing or the build fails.
std::string pprofAppBinary(std::string* error);

// `pprofapp -serve` on a loopback port the program picks (port 0) and prints; killed on destruction.
class ServingGoApp {
 public:
  explicit ServingGoApp(const std::string& binary);
  ~ServingGoApp();
  ServingGoApp(const ServingGoApp&) = delete;
  ServingGoApp& operator=(const ServingGoApp&) = delete;

  int port() const { return port_; }  // 0 when it did not start
  pid_t pid() const { return pid_; }
  const std::string& error() const { return error_; }

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::string error_;
};

}  // namespace proflow::testing
