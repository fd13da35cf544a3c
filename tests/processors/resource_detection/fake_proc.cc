#include "tests/processors/resource_detection/fake_proc.h"

#include <fstream>

namespace proflow::testing {

void FakeProc::add(const std::string& pid_dir, const FakeProcess& p) {
  namespace fs = std::filesystem;
  fs::path dir = dir_.path() / pid_dir;
  fs::remove_all(dir);
  fs::create_directories(dir);
  auto write = [&](const char* name, const std::string& body, bool with_newline) {
    std::ofstream(dir / name, std::ios::binary) << body << (with_newline ? "\n" : "");
  };
  if (!p.exe.empty()) fs::create_symlink(p.exe, dir / "exe");
  if (!p.root.empty()) fs::create_directory_symlink(p.root, dir / "root");
  if (!p.comm.empty()) write("comm", p.comm, true);
  if (!p.cmdline.empty()) write("cmdline", p.cmdline, false);
  if (!p.status.empty()) write("status", p.status, false);
  if (!p.cgroup.empty()) write("cgroup", p.cgroup, false);
  if (!p.mountinfo.empty()) write("mountinfo", p.mountinfo, false);
}

}  // namespace proflow::testing
