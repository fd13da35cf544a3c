// Pieces of HTTP syntax requests are read with: media types (RFC 9110 8.3.1) and request targets
// (RFC 9112 3.2).
#pragma once

#include <string>
#include <string_view>

namespace proflow::net {

// True when a Content-Type value names `media_type` ("type/subtype", lower case): compared without
// its parameters, surrounding spaces and ASCII case, as media types compare.
// "Application/JSON; charset=utf-8" is application/json.
bool isMediaType(std::string_view content_type, std::string_view media_type);

// The origin form ("/path?query") of a request target: the target itself, or for the absolute form
// a server must accept ("http://host:port/path?query", RFC 9112 3.2.2) what follows its authority
// ("/" when nothing does).
std::string originForm(std::string_view target);

}  // namespace proflow::net
