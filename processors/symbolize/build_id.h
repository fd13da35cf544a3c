// Build ids: validating the ones that arrive in profiles (untrusted) and reading the ones ELF files
// carry. Only validated, lower-case hex ids ever reach a file path or a URL.
#pragma once

#include <optional>
#include <string>
#include <string_view>

typedef struct Elf Elf;

namespace proflow::symbolize {

// Lower-case hex of a GNU build id, or nullopt unless `untrusted` is hex, of even length and 2..64
// bytes long (the range real linkers produce: 8-byte xxhash up to 32-byte sha256 ids and more).
std::optional<std::string> normalizeGnuBuildId(std::string_view untrusted);

// Lower-case 32 hex chars of an htlhash (the eBPF profiler's file id), or nullopt.
std::optional<std::string> normalizeHtlhash(std::string_view untrusted);

// A Go build id ("actionID/contentID", base64url parts) as a lookup key, or nullopt when it has
// characters a Go build id never has. Go ids are only compared, never used in paths.
std::optional<std::string> normalizeGoBuildId(std::string_view untrusted);

// Identities an ELF file carries in its notes; empty strings when absent.
struct ElfIdentity {
  std::string gnu_build_id;  // hex of .note.gnu.build-id
  std::string go_build_id;   // the Go note ("Go\0\0", type 4)
};
ElfIdentity readElfIdentity(Elf* elf);

// htlhash of a file: hex(SHA-256(file[0:4096] || file[len-4096:len] || uint64_be(len))[0:16]).
std::optional<std::string> htlhashOfFile(const std::string& path);

}  // namespace proflow::symbolize
