// process.runtime.* detection: Go build info parsed from buffers laid out as Go documents it, from a
// hand-made ELF file and from the real `go` binary (itself a Go program); JDK release files, Python
// and Node names on a fake procfs; and the real JDK checked against what `java` itself reports.
#include <elf.h>
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <map>

#include "processors/resource_detection/go_buildinfo.h"
#include "processors/resource_detection/process_detector.h"
#include "processors/resource_detection/runtime_detector.h"
#include "tests/processors/resource_detection/fake_proc.h"
#include "tests/support/daemon.h"

namespace proflow::processors::resourcedetection {
namespace {

std::string uvarint(uint64_t n) {
  std::string out;
  do {
    out += static_cast<char>((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n >>= 7;
  } while (n != 0);
  return out;
}

// A `.go.buildinfo` section in the Go 1.18+ layout: magic, pointer size, flags, 16 unused bytes,
// then version and module info as uvarint-prefixed strings.
std::string buildInfoSection(const std::string& version, const std::string& modinfo, uint8_t flags = 0x2) {
  std::string s("\xff Go buildinf:", 14);
  s += '\x08';
  s += static_cast<char>(flags);
  s += std::string(16, '\0');
  return s + uvarint(version.size()) + version + uvarint(modinfo.size()) + modinfo;
}

// Module info as the Go linker writes it (16-byte sentinels around the text); over 127 bytes so
// its length needs two varint bytes.
const std::string kModInfo = std::string(16, '\x30') + "path\texample.com/app\nmod\texample.com/app\t(devel)\t\n" +
                             "build\t-compiler=gc\nbuild\tCGO_ENABLED=0\nbuild\tGOARCH=arm64\nbuild\tGOOS=linux\n" +
                             std::string(16, '\xf9');

// A minimal ELF64 file (host byte order) whose only real section is `name` holding `data`.
std::string writeElf(const testing::TempDir& dir, const std::string& file, const std::string& name,
                     const std::string& data) {
  const std::string names = std::string(1, '\0') + name + '\0' + ".shstrtab" + '\0';
  Elf64_Ehdr eh{};
  std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS64;
  eh.e_ident[EI_DATA] = std::endian::native == std::endian::little ? ELFDATA2LSB : ELFDATA2MSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_type = ET_EXEC;
  eh.e_version = EV_CURRENT;
  eh.e_ehsize = sizeof eh;
  eh.e_shentsize = sizeof(Elf64_Shdr);
  eh.e_shnum = 3;
  eh.e_shstrndx = 2;
  const uint64_t data_off = sizeof eh, names_off = data_off + data.size();
  eh.e_shoff = names_off + names.size();
  Elf64_Shdr sh[3]{};
  sh[1].sh_name = 1;
  sh[1].sh_type = SHT_PROGBITS;
  sh[1].sh_offset = data_off;
  sh[1].sh_size = data.size();
  sh[2].sh_name = static_cast<uint32_t>(name.size() + 2);
  sh[2].sh_type = SHT_STRTAB;
  sh[2].sh_offset = names_off;
  sh[2].sh_size = names.size();
  std::string bytes(reinterpret_cast<const char*>(&eh), sizeof eh);
  bytes += data + names + std::string(reinterpret_cast<const char*>(sh), sizeof sh);
  return dir.write(file, bytes);
}

std::map<std::string, std::string> runtimeOf(const testing::FakeProc& proc, int64_t pid, ProcessConfig cfg = {}) {
  std::map<std::string, std::string> out;
  for (const auto& d : detectProcess(proc.root(), pid, cfg))
    if (d.key.starts_with("process.runtime.")) out[d.key.substr(16)] = d.value.string_value();
  return out;
}

std::string commandOutput(const std::string& cmd) {
  std::string out;
  if (testing::runCommand({"sh", "-c", cmd}, &out) != 0) return "";
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

TEST(GoBuildInfo, ParsesVersionAndPlatformFromTheDocumentedLayout) {
  auto info = parseGoBuildInfo(buildInfoSection("go1.21.3", kModInfo));
  ASSERT_TRUE(info);
  EXPECT_EQ(info->version, "go1.21.3");
  EXPECT_EQ(info->goos, "linux");
  EXPECT_EQ(info->goarch, "arm64");
  // Without module info (go build of a file outside a module may leave it empty): version only.
  info = parseGoBuildInfo(buildInfoSection("go1.20", ""));
  ASSERT_TRUE(info);
  EXPECT_EQ(info->version, "go1.20");
  EXPECT_EQ(info->goos, "");
}

TEST(GoBuildInfo, RejectsOtherLayoutsAndTruncation) {
  const std::string good = buildInfoSection("go1.21.3", kModInfo);
  EXPECT_FALSE(parseGoBuildInfo(buildInfoSection("go1.17", "", 0x0)));  // pre-1.18: pointers, not strings
  EXPECT_FALSE(parseGoBuildInfo("\xfe" + good.substr(1)));
  EXPECT_FALSE(parseGoBuildInfo(good.substr(0, 31)));
  EXPECT_FALSE(parseGoBuildInfo(good.substr(0, 32 + 4)));  // version cut
  EXPECT_FALSE(parseGoBuildInfo(buildInfoSection("", kModInfo)));
  // A cut module info still gives the version.
  auto info = parseGoBuildInfo(good.substr(0, good.size() - 10));
  ASSERT_TRUE(info);
  EXPECT_EQ(info->version, "go1.21.3");
  EXPECT_EQ(info->goarch, "");
}

TEST(GoBuildInfo, ReadsTheSectionOfAnElfFile) {
  testing::TempDir dir;
  const std::string section = buildInfoSection("go1.21.3", kModInfo);
  const std::string elf = writeElf(dir, "app", ".go.buildinfo", section);
  EXPECT_EQ(readElfSection(elf, ".go.buildinfo", 1 << 16), section);
  EXPECT_EQ(readElfSection(elf, ".go.buildinfo", 20), section.substr(0, 20));
  EXPECT_FALSE(readElfSection(elf, ".gopclntab", 1 << 16));
  EXPECT_FALSE(readElfSection(writeElf(dir, "c-app", ".data", section), ".go.buildinfo", 1 << 16));
  EXPECT_FALSE(readElfSection(dir.write("script", "#!/bin/sh\n"), ".go.buildinfo", 1 << 16));
  EXPECT_FALSE(readElfSection(dir.file("missing"), ".go.buildinfo", 1 << 16));
}

TEST(RuntimeDetector, GoProcessOnAFakeProc) {
  testing::TempDir dir;
  testing::FakeProc proc;
  proc.add("500", {.exe = writeElf(dir, "server", ".go.buildinfo", buildInfoSection("go1.21.3", kModInfo))});
  auto rt = runtimeOf(proc, 500);
  EXPECT_EQ(rt["name"], "go");
  EXPECT_EQ(rt["version"], "go1.21.3");
  EXPECT_EQ(rt["description"], "go version go1.21.3 linux/arm64");
  // A native program: no runtime attributes at all.
  proc.add("501", {.exe = writeElf(dir, "cprog", ".data", "x")});
  EXPECT_TRUE(runtimeOf(proc, 501).empty());
  // Switched off.
  ProcessConfig off;
  off.runtime = false;
  EXPECT_TRUE(runtimeOf(proc, 500, off).empty());
}

TEST(RuntimeDetector, TheRealGoToolIsAGoProgram) {
  const std::string go = commandOutput("readlink -f \"$(command -v go)\"");
  ASSERT_FALSE(go.empty()) << "go is not installed (Debian golang-go; make test installs it)";
  testing::FakeProc proc;
  proc.add("600", {.exe = go});
  auto rt = runtimeOf(proc, 600);
  EXPECT_EQ(rt["name"], "go");
  EXPECT_EQ(rt["version"], commandOutput("go env GOVERSION"));
  EXPECT_EQ(rt["description"], commandOutput("go version"));  // "go version go1.x.y linux/amd64"
}

TEST(RuntimeDetector, JavaVersionFromTheJdkReleaseFile) {
  testing::TempDir root;  // the process's filesystem, seen through <pid>/root
  std::filesystem::create_directories(root.path() / "opt/jdk-21/bin");
  std::filesystem::create_directories(root.path() / "opt/jdk8/jre/bin");
  root.write("opt/jdk-21/release", "IMPLEMENTOR=\"Eclipse Adoptium\"\nIMPLEMENTOR_VERSION=\"Temurin-21.0.2+13\"\n"
                                   "JAVA_RUNTIME_VERSION=\"21.0.2+13-LTS\"\nJAVA_VERSION=\"21.0.2\"\n");
  root.write("opt/jdk8/release", "JAVA_VERSION=\"1.8.0_392\"\nOS_NAME=\"Linux\"\n");
  testing::FakeProc proc;
  proc.add("700", {.exe = "/opt/jdk-21/bin/java", .root = root.path().string()});
  proc.add("701", {.exe = "/opt/jdk8/jre/bin/java", .root = root.path().string()});
  proc.add("702", {.exe = "/usr/local/bin/java", .root = root.path().string()});  // no release file
  auto rt = runtimeOf(proc, 700);
  EXPECT_EQ(rt["name"], "java");
  EXPECT_EQ(rt["version"], "21.0.2+13-LTS");
  EXPECT_EQ(rt["description"], "Eclipse Adoptium Temurin-21.0.2+13");
  rt = runtimeOf(proc, 701);
  EXPECT_EQ(rt["version"], "1.8.0_392");
  EXPECT_EQ(rt.count("description"), 0u);
  EXPECT_EQ((runtimeOf(proc, 702)), (std::map<std::string, std::string>{{"name", "java"}}));
}

TEST(RuntimeDetector, RealJdkAgreesWithWhatTheJvmReports) {
  const std::string java = commandOutput("readlink -f \"$(command -v java)\"");
  ASSERT_FALSE(java.empty()) << "java is not installed (Debian openjdk-17-jdk-headless; make test installs it)";
  // java.runtime.version as the JVM prints it: "    java.runtime.version = 17.0.15+6-Debian-1deb12u1".
  const std::string reported =
      commandOutput("java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.runtime.version = //p'");
  ASSERT_FALSE(reported.empty());
  testing::FakeProc proc;
  proc.add("800", {.exe = java, .root = "/"});
  auto rt = runtimeOf(proc, 800);
  EXPECT_EQ(rt["name"], "java");
  EXPECT_EQ(rt["version"], reported);
}

TEST(RuntimeDetector, PythonAndNodeByExecutableName) {
  testing::FakeProc proc;
  proc.add("900", {.exe = "/usr/bin/python3.11"});
  proc.add("901", {.exe = "/opt/venv/bin/python3"});
  proc.add("902", {.exe = "/usr/bin/python3-config"});
  proc.add("903", {.exe = "/usr/bin/node"});
  auto rt = runtimeOf(proc, 900);
  EXPECT_EQ(rt["name"], "cpython");
  EXPECT_EQ(rt["version"], "3.11");
  EXPECT_EQ((runtimeOf(proc, 901)), (std::map<std::string, std::string>{{"name", "cpython"}}));
  EXPECT_TRUE(runtimeOf(proc, 902).empty());
  EXPECT_EQ((runtimeOf(proc, 903)), (std::map<std::string, std::string>{{"name", "nodejs"}}));
}

TEST(RuntimeDetector, ReleaseFileFields) {
  const std::string release = "JAVA_VERSION=\"17.0.15\"\r\nJAVA_VERSION_DATE=\"2025-04-15\"\nIMPLEMENTOR=Debian\n";
  EXPECT_EQ(releaseField(release, "JAVA_VERSION"), "17.0.15");
  EXPECT_EQ(releaseField(release, "JAVA_VERSION_DATE"), "2025-04-15");
  EXPECT_EQ(releaseField(release, "IMPLEMENTOR"), "Debian");
  EXPECT_EQ(releaseField(release, "JAVA"), "");
}

}  // namespace
}  // namespace proflow::processors::resourcedetection
