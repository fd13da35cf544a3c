// Small readers of procfs files, rooted at a configurable directory so tests can use fake trees.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace proflow::processors::resourcedetection {

// Whole content of a file; nullopt when it cannot be read (process gone, no permission).
std::optional<std::string> readSmallFile(const std::string& path);

// Removes the first line of `text` and returns it without its '\n' (text files of procfs and
// friends are parsed line by line).
std::string_view takeLine(std::string_view& text);

// Target of a symbolic link; nullopt when it is not one or cannot be read.
std::optional<std::string> readLink(const std::string& path);

}  // namespace proflow::processors::resourcedetection
