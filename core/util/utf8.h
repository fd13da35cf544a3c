// UTF-8 checks and repair. OTLP strings must be well-formed UTF-8 (protobuf refuses a request whose
// proto3 string fields are not), while pprof, JFR and perf recordings may hold any bytes: decoders
// check with isValidUtf8 and converters repair with sanitizeUtf8.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "core/util/status.h"

namespace proflow {

// True when `s` is well-formed UTF-8: no overlong forms, surrogates, truncated sequences or code
// points above U+10FFFF.
bool isValidUtf8(std::string_view s);

// Byte length of the character that starts at s[i] (i < s.size()); 1 for a byte that starts no
// well-formed sequence, so a walk over any bytes moves on.
size_t utf8CharLength(std::string_view s, size_t i);

// The longest prefix of `s` of at most `max_bytes` bytes that does not end inside a character.
std::string_view utf8Prefix(std::string_view s, size_t max_bytes);

// `s` with each byte that does not start a well-formed sequence replaced by U+FFFD.
std::string sanitizeUtf8(std::string_view s);

// Where text enters as OTLP strings (a receiver's query parameters become resource attributes): a
// refusal (INVALID_ARGUMENT) naming the first parameter whose name or value is not valid UTF-8, ok
// when all are. Accepting one would make the next OTLP hop refuse the whole request it ends up in.
Status checkUtf8Parameters(const std::multimap<std::string, std::string>& query);

}  // namespace proflow
