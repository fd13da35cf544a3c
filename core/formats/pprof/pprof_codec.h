// pprof (perftools.profiles.Profile) decoding and encoding. Input may be gzip, zstd or raw protobuf
// (told apart by magic bytes); decompression is bounded by size and inflate ratio, and every decoded
// profile is structurally validated so converters can index tables without further checks.
#pragma once

#include <string>
#include <string_view>

#include "core/compression/compression.h"
#include "core/util/status.h"
#include "perftools/profiles/profile.pb.h"

namespace proflow::pprof {

using Profile = ::perftools::profiles::Profile;

// What one decoded profile may hold, checked by validateProfile() before any conversion. Far above what
// real producers write (Go, async-profiler, perf, Pyroscope SDKs), far below what would exhaust memory
// once converted (each OTLP sample, label and frame costs tens of bytes, a pprof entry as little as 2).
// Exceeding one is kPayloadTooLarge naming the limit.
struct ProfileLimits {
  uint64_t max_samples = 4'000'000;
  uint64_t max_sample_types = 64;           // value columns per sample
  uint64_t max_labels_per_sample = 128;
  uint64_t max_stack_depth = 16'384;        // location ids per sample
  uint64_t max_string_length = 1u << 20;    // bytes per string_table entry
};

struct DecodeOptions {
  // Applied to the decompressed bytes (raw input too): absolute cap and inflate-ratio cap.
  compression::Limits limits;
  // Run validateProfile() after parsing (recommended; converters assume a valid profile).
  bool validate = true;
  ProfileLimits profile_limits;  // checked with the validation
};

// Decompresses (gzip/zstd/raw by magic bytes), parses and validates. Errors: kPayloadTooLarge when a
// size limit is hit, kInvalidArgument for corrupt compression, protobuf or structure (message says
// what is wrong, e.g. "pprof: sample 12: location_id 99 not found").
Status decodeProfile(std::string_view data, Profile* out, const DecodeOptions& options = {});

// The first step of decodeProfile: gzip/zstd/raw by magic bytes into `raw`, with the size limits.
Status decompressProfile(std::string_view data, std::string* raw, const compression::Limits& limits);

// Parses an uncompressed serialized Profile (no validation).
Status parseProfile(std::string_view raw, Profile* out);

// Structural checks: string_table[0] == "", every string index in range, mapping/location/function
// ids nonzero and unique, every referenced id resolvable, one value per sample type in each sample;
// and the counts and lengths of `limits`.
Status validateProfile(const Profile& p, const ProfileLimits& limits = {});

enum class Encoding { kGzip, kZstd, kRaw };

// Fastest gzip level: what Go's runtime/pprof writes with (gzip.BestSpeed); level 6 costs about
// twice the CPU for a few percent smaller files.
inline constexpr int kDefaultGzipLevel = 1;

// Serializes `p` and compresses it (gzip is what every pprof reader expects). `level` 0 = the
// codec's own default (gzip 6, zstd 3).
Status encodeProfile(const Profile& p, std::string* out, Encoding encoding = Encoding::kGzip,
                     int level = kDefaultGzipLevel);

// The second half of encodeProfile, for an already serialized Profile.
Status compressProfile(std::string raw, std::string* out, Encoding encoding = Encoding::kGzip,
                       int level = kDefaultGzipLevel);
// The same from bytes the caller keeps (kRaw copies them).
Status compressProfileBytes(std::string_view raw, std::string* out, Encoding encoding = Encoding::kGzip,
                            int level = kDefaultGzipLevel);

}  // namespace proflow::pprof
