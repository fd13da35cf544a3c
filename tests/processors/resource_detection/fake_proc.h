// A fake procfs tree in a temp dir: /<pid>/{exe,comm,cmdline,status,cgroup,mountinfo,root} as the
// detectors read them, so tests choose every input.
#pragma once

#include <filesystem>
#include <string>

#include "tests/support/temp_dir.h"

namespace proflow::testing {

struct FakeProcess {
  std::string exe;      // target of the exe link; "" = no link
  std::string comm;     // without the trailing newline the kernel adds
  std::string cmdline;  // NUL-separated, as the kernel writes it
  std::string status;   // "Name:\t...\nUid:\t...\n..."
  std::string cgroup;
  std::string mountinfo;
  std::string root;     // target of the root link (the process's filesystem root); "" = no link
};

class FakeProc {
 public:
  std::string root() const { return dir_.path().string(); }
  // Writes `<root>/<pid_dir>/...`; pid_dir is a pid or "self". Replaces what was there.
  void add(const std::string& pid_dir, const FakeProcess& p);

 private:
  TempDir dir_;
};

}  // namespace proflow::testing
