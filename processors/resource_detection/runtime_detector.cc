#include "processors/resource_detection/runtime_detector.h"

#include <algorithm>
#include <cctype>

#include "processors/resource_detection/go_buildinfo.h"
#include "processors/resource_detection/proc_files.h"

namespace proflow::processors::resourcedetection {
namespace {

// The whole section is a few hundred bytes (header, version, module list); a huge module list is
// cut, which can only cost GOOS/GOARCH, never the version that comes first.
constexpr size_t kMaxBuildInfoBytes = 64 << 10;

std::string_view dirName(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? std::string_view() : path.substr(0, slash);
}

std::string_view baseName(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

void addRuntime(DetectedList& out, std::string_view name, std::string_view version, std::string_view description) {
  addString(out, "process.runtime.name", name);
  addString(out, "process.runtime.version", version);
  addString(out, "process.runtime.description", description);
}

// <home>/bin/java; for a JDK 8 layout (<jdk>/jre/bin/java) the release file is in <jdk>.
void detectJava(const std::string& pid_dir, std::string_view exe, DetectedList& out) {
  std::string_view home = dirName(dirName(exe));
  std::optional<std::string> release;
  if (!home.empty()) release = readSmallFile(pid_dir + "/root" + std::string(home) + "/release");
  if (!release && baseName(home) == "jre") release = readSmallFile(pid_dir + "/root" + std::string(dirName(home)) + "/release");
  std::string version, description;
  if (release) {
    // JAVA_RUNTIME_VERSION is what the JVM reports as java.runtime.version (the semconv source);
    // older JDKs only write JAVA_VERSION.
    version = releaseField(*release, "JAVA_RUNTIME_VERSION");
    if (version.empty()) version = releaseField(*release, "JAVA_VERSION");
    description = releaseField(*release, "IMPLEMENTOR");
    std::string vendor_version = releaseField(*release, "IMPLEMENTOR_VERSION");
    if (!vendor_version.empty()) description += (description.empty() ? "" : " ") + vendor_version;
  }
  // The JVM itself would say e.g. "OpenJDK Runtime Environment", which no file tells; "java" is
  // what the executable tells.
  addRuntime(out, "java", version, description);
}

// python, python3, python3.11: CPython's launcher names; only "X.Y" names carry a usable version.
bool detectPython(std::string_view base, DetectedList& out) {
  if (!base.starts_with("python")) return false;
  std::string_view rest = base.substr(6);
  if (!std::all_of(rest.begin(), rest.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || c == '.'; }))
    return false;  // python3-config, python-argcomplete, ...
  addRuntime(out, "cpython", rest.find('.') != std::string_view::npos ? rest : "", "");
  return true;
}

void detectGo(const std::string& pid_dir, DetectedList& out) {
  auto section = readElfSection(pid_dir + "/exe", ".go.buildinfo", kMaxBuildInfoBytes);
  if (!section) return;
  auto info = parseGoBuildInfo(*section);
  if (!info) return;
  // The description the OpenTelemetry Go SDK sets: "go version go1.22.1 linux/amd64".
  std::string description;
  if (!info->goos.empty() && !info->goarch.empty())
    description = "go version " + info->version + " " + info->goos + "/" + info->goarch;
  addRuntime(out, "go", info->version, description);
}

}  // namespace

std::string releaseField(std::string_view release, std::string_view key) {
  while (!release.empty()) {
    std::string_view line = takeLine(release);
    if (line.size() <= key.size() || !line.starts_with(key) || line[key.size()] != '=') continue;
    std::string_view value = line.substr(key.size() + 1);
    while (!value.empty() && (value.back() == '\r' || value.back() == ' ')) value.remove_suffix(1);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
    return std::string(value);
  }
  return "";
}

DetectedList detectRuntime(const std::string& pid_dir, const std::string& exe_path) {
  DetectedList out;
  std::string_view base = baseName(exe_path);
  if (base.empty()) return out;
  if (base == "java") detectJava(pid_dir, exe_path, out);
  else if (base == "node" || base == "nodejs") addRuntime(out, "nodejs", "", "");
  else if (!detectPython(base, out)) detectGo(pid_dir, out);
  return out;
}

}  // namespace proflow::processors::resourcedetection
