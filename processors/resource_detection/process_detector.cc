#include "processors/resource_detection/process_detector.h"

#include <pwd.h>
#include <unistd.h>

#include <charconv>
#include <optional>

#include "core/util/ascii.h"
#include "processors/resource_detection/proc_files.h"
#include "processors/resource_detection/runtime_detector.h"

namespace proflow::processors::resourcedetection {
namespace {

std::string baseName(std::string_view path) {
  size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string joinArgs(const std::vector<std::string>& args) {
  std::string out;
  for (const auto& a : args) out += (out.empty() ? "" : " ") + a;
  return out;
}

otlp::AnyValue stringArray(const std::vector<std::string>& items) {
  otlp::AnyValue v;
  auto* arr = v.mutable_array_value();
  for (const auto& s : items) arr->add_values()->set_string_value(s);
  return v;
}

// Returns the executable's path (for the runtime detection), nullopt when the link is unreadable.
std::optional<std::string> addExecutable(const std::string& dir, DetectedList& out) {
  auto exe = readLink(dir + "/exe");
  // The kernel marks a replaced or removed binary; the path it was started from is still the answer.
  constexpr std::string_view kDeleted = " (deleted)";
  if (exe && exe->size() > kDeleted.size() && exe->ends_with(kDeleted)) exe->resize(exe->size() - kDeleted.size());
  if (exe) addString(out, "process.executable.path", *exe);
  // semconv: on Linux the executable name is the Name of /proc/<pid>/status, i.e. comm.
  std::string comm = readSmallFile(dir + "/comm").value_or("");
  while (!comm.empty() && comm.back() == '\n') comm.pop_back();
  addString(out, "process.executable.name", comm.empty() && exe ? baseName(*exe) : comm);
  return exe;
}

void addCommand(const std::string& dir, const ProcessConfig& config, DetectedList& out) {
  auto body = readSmallFile(dir + "/cmdline");
  if (!body) return;
  std::vector<std::string> args = splitCmdline(*body);
  if (args.empty()) return;  // kernel threads and zombies have no command line
  addString(out, "process.command", args[0]);
  if (config.command_line) addString(out, "process.command_line", joinArgs(args));
  if (config.command_args) out.push_back({"process.command_args", stringArray(args)});
}

void addStatus(const std::string& dir, DetectedList& out) {
  auto status = readSmallFile(dir + "/status");
  if (!status) return;
  std::string uid_text = statusField(*status, "Uid");
  uint32_t uid = 0;
  auto [p, ec] = std::from_chars(uid_text.data(), uid_text.data() + uid_text.size(), uid);
  if (!uid_text.empty() && ec == std::errc()) addString(out, "process.owner", userName(uid));
  std::string ppid_text = statusField(*status, "PPid");
  int64_t ppid = 0;
  auto [q, ec2] = std::from_chars(ppid_text.data(), ppid_text.data() + ppid_text.size(), ppid);
  if (!ppid_text.empty() && ec2 == std::errc()) out.push_back({"process.parent_pid", intValue(ppid)});
}

}  // namespace

std::vector<std::string> splitCmdline(std::string_view body) {
  std::vector<std::string> args;
  while (!body.empty()) {
    size_t nul = body.find('\0');
    args.emplace_back(body.substr(0, nul));
    if (nul == std::string_view::npos) break;
    body.remove_prefix(nul + 1);
  }
  return args;
}

std::string statusField(std::string_view status, std::string_view name) {
  while (!status.empty()) {
    std::string_view line = takeLine(status);
    if (line.size() <= name.size() || !line.starts_with(name) || line[name.size()] != ':') continue;
    line.remove_prefix(name.size() + 1);
    line = trim(line);
    size_t end = line.find_first_of(" \t");
    return std::string(line.substr(0, end));
  }
  return "";
}

std::string userName(uint32_t uid) {
  struct passwd pw {};
  struct passwd* found = nullptr;
  std::string buf(16384, '\0');
  if (getpwuid_r(uid, &pw, buf.data(), buf.size(), &found) == 0 && found && found->pw_name)
    return found->pw_name;
  return std::to_string(uid);
}

DetectedList detectProcess(const std::string& proc_root, int64_t pid, const ProcessConfig& config) {
  DetectedList out;
  if (pid <= 0) return out;
  const std::string dir = proc_root + "/" + std::to_string(pid);
  if (access(dir.c_str(), F_OK) != 0) return out;
  auto exe = addExecutable(dir, out);
  addCommand(dir, config, out);
  addStatus(dir, out);
  if (exe && config.runtime) mergeMissing(out, detectRuntime(dir, *exe));
  return out;
}

}  // namespace proflow::processors::resourcedetection
