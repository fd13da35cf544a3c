// Percent-encoding (RFC 3986 section 2.1): the one decoder and encoder of production code (query
// strings, OTEL_RESOURCE_ATTRIBUTES, Pyroscope's ingest URL).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace proflow {

// What a '+' means: itself (RFC 3986, W3C baggage) or a space (HTML form encoding, query strings).
enum class PlusSign { kLiteral, kSpace };

// `s` with each "%XX" (two hex digits, either case) replaced by its byte; nullopt when a '%' is not
// followed by two hex digits.
std::optional<std::string> percentDecode(std::string_view s, PlusSign plus = PlusSign::kLiteral);

// `s` with every byte but the unreserved ones (ALPHA DIGIT - . _ ~) written as "%XX" (uppercase,
// as RFC 3986 recommends).
std::string percentEncode(std::string_view s);

}  // namespace proflow
