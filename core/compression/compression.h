// Bounded compression codecs shared by receivers (Content-Encoding, gzip'd pprof, multipart parts)
// and exporters. Every decompression is capped twice: an absolute output size and an inflate ratio
// (output / input), checked while streaming so a bomb never allocates past the cap.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/util/status.h"

namespace proflow::compression {

enum class Codec { kNone, kGzip, kZlib, kZstd, kLz4 };

const char* codecName(Codec c);  // "none", "gzip", "deflate", "zstd", "lz4"

// Content-Encoding / config spelling: "", "identity", "none" -> kNone; "gzip", "x-gzip"; "deflate", "zlib";
// "zstd"; "lz4". nullopt for anything else (the caller answers 415 / INVALID_ARGUMENT).
std::optional<Codec> codecFromName(std::string_view name);

// By magic bytes: 1f 8b -> gzip, 28 b5 2f fd -> zstd, 04 22 4d 18 -> lz4 frame; otherwise kNone.
Codec detectCodec(std::string_view data);

struct Limits {
  size_t max_output_bytes = 64u << 20;
  // Output may exceed input * max_inflate_ratio only while output is below ratio_floor_bytes
  // (small payloads legitimately compress very well).
  double max_inflate_ratio = 100.0;
  size_t ratio_floor_bytes = 1u << 20;
};

// Decompresses `in` (must be encoded with `codec`; kNone copies with the size check) into `out`.
// Errors: kPayloadTooLarge when a limit is hit (message names the limit), kInvalidArgument when the
// data is corrupt or truncated (message names the codec and what failed).
Status decompress(Codec codec, std::string_view in, std::string& out, const Limits& limits);

// Detects the codec by magic bytes, then decompresses (kNone: copies).
Status decompressAuto(std::string_view in, std::string& out, const Limits& limits);

// decompressAuto() without the copy of uncompressed input: `*out` views `in` itself (checked against
// max_output_bytes) or the inflated bytes in `*storage`.
Status inflateOrView(std::string_view in, const Limits& limits, std::string* storage, std::string_view* out);

// level 0 = codec default (gzip 6, zstd 3).
Status compress(Codec codec, std::string_view in, std::string& out, int level = 0);

namespace internal {
class IsalGzipStream;
}

// compress() of a payload handed over in pieces, for writers that produce it in chunks: gzip at the
// fast levels (1-3, ISA-L) compresses each piece as it comes, so a large payload never exists whole
// and each piece is compressed while still in cache. Other codecs and levels collect the pieces and
// compress them at the end. The output is a valid stream of `codec`, not necessarily the bytes
// compress() would give for the whole payload.
class StreamCompressor {
 public:
  StreamCompressor(Codec codec, int level, std::string* out);
  ~StreamCompressor();
  StreamCompressor(const StreamCompressor&) = delete;
  StreamCompressor& operator=(const StreamCompressor&) = delete;

  // `piece` may be reused once this returns. `last` completes `out`.
  Status write(std::string_view piece, bool last);

 private:
  Codec codec_;
  int level_;
  std::string* out_;
  std::unique_ptr<internal::IsalGzipStream> gzip_;  // the streaming path, when it applies
  std::string collected_;                           // the other paths
};

}  // namespace proflow::compression
