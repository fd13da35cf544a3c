// Fixtures of the symbolstore tests: a small C++ program built with g++ -g at test time, its split
// debug file and stripped executable, tiny programs with distinct build ids, and gateway services.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/service/service.h"

namespace proflow::symbolstore_testing {

struct CommandResult {
  int status = -1;
  std::string output;  // stdout and stderr
};
CommandResult run(const std::string& command);

struct App {
  std::string unstripped;  // g++ -g -O1 -Wl,--build-id
  std::string debug;       // objcopy --only-keep-debug
  std::string stripped;    // strip --strip-all
  std::string build_id;    // lower-case hex
  uint64_t function_vaddr = 0;  // ELF virtual address of symbolstore_compute
  int function_line = 0;        // its first line in app.cc
  std::string error;
};
App buildApp(const std::string& dir);

// A C program returning `n`, so each has its own build id; path of the executable ("" on failure).
std::string buildTiny(const std::string& dir, int n);

// GNU build id of an ELF file as hex ("" when none).
std::string buildIdOf(const std::string& path);

// Loads `yaml` with the built-ins and the test fakes and starts it (null + test failure on error).
std::unique_ptr<Service> startService(const std::string& yaml);
// The error listing of `yaml` ("" when it loads).
std::string configErrors(const std::string& yaml);

}  // namespace proflow::symbolstore_testing
