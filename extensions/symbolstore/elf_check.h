// The check every file passes before it enters the store: an ELF file carrying the GNU build id
// (NT_GNU_BUILD_ID note) the upload named. Files are untrusted input; libelf reads them bounded.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/util/status.h"

namespace proflow::extensions::symbolstore {

// Lower-case hex of `untrusted` when it is a plausible GNU build id (hex, even length, 2..64
// bytes), else nullopt. Only ids passing this reach a path or a URL.
std::optional<std::string> normalizeBuildId(std::string_view untrusted);

// OK, or INVALID_ARGUMENT naming what is wrong: not an ELF file, no build id note, or a build id
// different from `expected_build_id`; `reason` (optional) gets a metric label for the refusal:
// "not_elf", "no_build_id", "build_id_mismatch".
Status checkElfFile(const std::string& path, const std::string& expected_build_id, const char** reason = nullptr);

}  // namespace proflow::extensions::symbolstore
