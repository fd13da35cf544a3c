// Identifiers that pprof carries as free-form strings: trace/span ids in labels and mapping build
// ids. Also the attribute names the pprof <-> OTLP conversion uses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/util/hex.h"

namespace proflow::pprof {

// Attribute keys (semantic conventions where they exist; proflow-specific ones are marked).
namespace attr {
inline constexpr std::string_view kBuildIdGnu = "process.executable.build_id.gnu";
inline constexpr std::string_view kBuildIdGo = "process.executable.build_id.go";
// proflow: a build id that is neither hex (GNU note) nor Go-style, kept verbatim.
inline constexpr std::string_view kBuildIdOther = "pprof.mapping.build_id";
inline constexpr std::string_view kHasFunctions = "pprof.mapping.has_functions";
inline constexpr std::string_view kHasFilenames = "pprof.mapping.has_filenames";
inline constexpr std::string_view kHasLineNumbers = "pprof.mapping.has_line_numbers";
inline constexpr std::string_view kHasInlineFrames = "pprof.mapping.has_inline_frames";
inline constexpr std::string_view kIsFolded = "pprof.location.is_folded";
inline constexpr std::string_view kComment = "pprof.profile.comment";
inline constexpr std::string_view kDocUrl = "pprof.profile.doc_url";
inline constexpr std::string_view kDropFrames = "pprof.profile.drop_frames";
inline constexpr std::string_view kKeepFrames = "pprof.profile.keep_frames";
inline constexpr std::string_view kDefaultSampleType = "pprof.scope.default_sample_type";
inline constexpr std::string_view kSampleTypeOrder = "pprof.scope.sample_type_order";
// proflow: pprof mappings no location refers to (Go lists every executable mapping of the process),
// kept by value on the scope (array of kvlists with the Mapping field names) so they survive.
inline constexpr std::string_view kUnreferencedMappings = "proflow.pprof.unreferenced_mappings";
}  // namespace attr

// Numeric label that carries a per-sample timestamp (ns since the epoch) in pprof (Datadog's name).
// pprof -> OTLP copies it into Sample.timestamps_unix_nano (the label stays an attribute);
// OTLP -> pprof writes it for samples whose timestamps would otherwise be lost.
inline constexpr std::string_view kTimestampLabel = "end_timestamp_ns";

// Lowercase hex of raw bytes (a binary build id written without hex encoding).
inline std::string toHex(std::string_view bytes) { return hexEncode(bytes); }

enum class BuildIdKind { kNone, kGnu, kGo, kOther };

// "" -> kNone; only hex digits (even count) -> kGnu (ELF NT_GNU_BUILD_ID note in hex);
// contains '/' (Go's actionID/contentID form) -> kGo; anything else -> kOther.
BuildIdKind classifyBuildId(std::string_view build_id);
std::string_view buildIdAttribute(BuildIdKind kind);  // "" for kNone

// A span (8 bytes) or trace (16 bytes) id, big-endian, held inline: ids are parsed for every
// distinct id label, often one per sample, and a 16-byte std::string would allocate.
class IdBytes {
 public:
  IdBytes(const uint8_t* bytes, size_t size);  // size <= 16
  std::string_view view() const { return {bytes_, size_}; }
  size_t size() const { return size_; }
  char operator[](size_t i) const { return bytes_[i]; }
  bool isZero() const;
  friend bool operator==(const IdBytes& a, std::string_view b) { return a.view() == b; }

 private:
  char bytes_[16];
  uint8_t size_;
};

// Parses an id written in hex (optionally 0x-prefixed; hex when it has a-f or is exactly the full
// width, 16 digits for a span, 32 for a trace) or in decimal (Datadog writes uint64 decimals).
// Returns the big-endian bytes (8 for a span id, 16 for a trace id), nullopt when unparseable or zero.
std::optional<IdBytes> parseSpanId(std::string_view text);
std::optional<IdBytes> parseTraceId(std::string_view text);
// Numeric labels: the int64 bit pattern as an unsigned id.
std::optional<IdBytes> spanIdFromNumber(int64_t v);
std::optional<IdBytes> traceIdFromNumber(int64_t v);

// Which trace-correlation role a label key has.
enum class LinkRole { kNone, kSpan, kRootSpan, kTrace };
LinkRole linkRoleOf(std::string_view label_key);
// When a sample has several span labels: lower wins. span_id (OTel/Pyroscope) 0, "span id"
// (Datadog) 1, profile_id (older Pyroscope) 2; "local root span id" is used only without any of them.
int spanKeyPriority(std::string_view label_key);

}  // namespace proflow::pprof
