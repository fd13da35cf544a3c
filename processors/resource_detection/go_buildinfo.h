// Which Go toolchain built an executable, from its `.go.buildinfo` ELF section — what `go version
// <binary>` reports, read without running the program.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace proflow::processors::resourcedetection {

struct GoBuildInfo {
  std::string version;  // e.g. "go1.19.8", as runtime.Version() says
  std::string goos;     // from the "build\tGOOS=..." line of the module info, "" when absent
  std::string goarch;
};

// Parses a `.go.buildinfo` section. Layout (Go 1.18 and later): the 14-byte magic
// "\xff Go buildinf:", a pointer-size byte, a flags byte; with flag 0x2 ("strings inline") the
// version and the module info follow the 32-byte header, each as a uvarint length then the bytes.
// Older binaries (pointers to the strings instead) give nullopt.
std::optional<GoBuildInfo> parseGoBuildInfo(std::string_view section);

// Up to `max_bytes` of the section called `name` of the ELF file at `path` (32- or 64-bit, host
// byte order); nullopt when the file is not such an ELF or has no such section.
std::optional<std::string> readElfSection(const std::string& path, std::string_view name, size_t max_bytes);

}  // namespace proflow::processors::resourcedetection
