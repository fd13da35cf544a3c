// Standard base64 (RFC 4648, with padding) for Basic credentials and {SHA} htpasswd entries.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace proflow::extensions::basicauth {

std::string base64Encode(std::string_view bytes);
// nullopt when `text` is not valid padded base64.
std::optional<std::string> base64Decode(std::string_view text);

}  // namespace proflow::extensions::basicauth
