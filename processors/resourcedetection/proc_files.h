// Small readers of procfs files, rooted at a configurable directory so tests can use fake trees.
#pragma once

#include <optional>
#include <string>

namespace proflow::processors::resourcedetection {

// Whole content of a file; nullopt when it cannot be read (process gone, no permission).
std::optional<std::string> readSmallFile(const std::string& path);

// Target of a symbolic link; nullopt when it is not one or cannot be read.
std::optional<std::string> readLink(const std::string& path);

}  // namespace proflow::processors::resourcedetection
