// Gzip compression through Intel ISA-L (igzip) for the fast levels 1-3: on profile payloads level 1
// compresses about 4x faster than libdeflate's level 1, its output 1-4% larger. Internal to
// core/compression; callers use compression::compress().
//
// ISA-L's hand-written AVX-512 code returns with the upper halves of the vector registers dirty (no
// vzeroupper), and every SSE instruction the caller runs afterwards (memcpy of small strings,
// protobuf) paid a state-transition penalty: a pprof round trip of a Go cpu profile ran ~30% slower
// with ISA-L than with libdeflate until isalGzipCompress cleared that state on return. It does now,
// and ISA-L is used at every size.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "core/util/status.h"

namespace proflow::compression::internal {

// Levels ISA-L implements; higher levels go to libdeflate.
inline constexpr int kIsalMaxLevel = 3;

// Level 1 below this input size uses the fixed Huffman codes of the deflate format instead of codes
// built for the input. Building the codes (a histogram, two trees, the tables) costs ~10 us whatever
// the size: more than compressing a whole small profile. Measured on Go profiles of 0.6-9 KB: 2-5x
// faster compression (10-40% of a pprof round trip), output 3-11% larger. Above this size the gain
// no longer pays for the size (a 47 KB cpu profile: fixed codes 10% faster, 11% larger).
inline constexpr size_t kIsalFixedCodesBelow = 16 << 10;

// Compresses `in` as one gzip member at `level` (1..kIsalMaxLevel) into `out`.
Status isalGzipCompress(std::string_view in, std::string& out, int level);

// One gzip member from input handed over in pieces: ISA-L keeps the history it matches against
// between calls, so a piece's buffer may be reused as soon as write() returns. Appends to `out`.
// Holds ~0.4 MB of state (its own, not the one-shot path's); one stream per thread at a time.
class IsalGzipStream {
 public:
  IsalGzipStream();
  ~IsalGzipStream();
  IsalGzipStream(const IsalGzipStream&) = delete;
  IsalGzipStream& operator=(const IsalGzipStream&) = delete;

  Status begin(int level, std::string* out);
  // `last` ends the member (header, data, trailer complete in `out`).
  Status write(std::string_view piece, bool last);

  struct State;

 private:
  std::unique_ptr<State> state_;
  std::string* out_ = nullptr;
  size_t out_used_ = 0;
};

}  // namespace proflow::compression::internal
