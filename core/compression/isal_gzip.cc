#include "core/compression/isal_gzip.h"

#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace proflow::compression::internal {
namespace {

// The size of the match buffer ISA-L wants next to its stream, per level.
constexpr uint32_t kLevelBufferSizes[kIsalMaxLevel + 1] = {ISAL_DEF_LVL0_DEFAULT, ISAL_DEF_LVL1_DEFAULT,
                                                          ISAL_DEF_LVL2_DEFAULT, ISAL_DEF_LVL3_DEFAULT};

// The per-level match buffer (a few hundred kB): allocated once per thread and level, like the
// libdeflate compressors, so a small payload does not pay for it.
struct LevelBuffers {
  std::vector<uint8_t> by_level[kIsalMaxLevel + 1];

  std::vector<uint8_t>& get(int level) {
    auto& buf = by_level[level];
    if (buf.empty()) buf.resize(kLevelBufferSizes[level]);
    return buf;
  }
};

// Worst case for stored blocks plus the gzip header and trailer; enough for one call in practice,
// and the loop below grows the output if ISA-L still asks for more.
size_t initialBound(size_t n) { return n + n / 64 + 1024; }

// Clears the upper halves of the AVX registers that ISA-L's assembly leaves dirty (see the header).
// The vector registers are declared clobbered, so a build with AVX enabled keeps nothing live in them
// across this point.
void clearUpperVectorState() {
#if defined(__x86_64__)
  static const bool has_avx = __builtin_cpu_supports("avx");
  if (has_avx)
    asm volatile("vzeroupper" ::: "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
                 "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
#endif
}

}  // namespace

Status isalGzipCompress(std::string_view in, std::string& out, int level) {
  if (level < 1 || level > kIsalMaxLevel) return Status::invalid("gzip: ISA-L level out of range");
  thread_local LevelBuffers buffers;
  // isal_zstream holds ~300 KB of internal state: keep it off the stack.
  thread_local auto stream = std::make_unique<isal_zstream>();
  isal_zstream& s = *stream;
  isal_deflate_init(&s);
  if (level == 1 && in.size() < kIsalFixedCodesBelow) {
    // ISA-L's level 0 with the format's fixed codes: its matcher, no per-input code building.
    s.level = 0;
    if (isal_deflate_set_hufftables(&s, nullptr, IGZIP_HUFFTABLE_STATIC) != COMP_OK)
      return Status::internal("gzip: ISA-L rejected the fixed Huffman tables");
  } else {
    auto& level_buf = buffers.get(level);
    s.level = static_cast<uint32_t>(level);
    s.level_buf = level_buf.data();
    s.level_buf_size = static_cast<uint32_t>(level_buf.size());
  }
  s.gzip_flag = IGZIP_GZIP;
  s.flush = NO_FLUSH;

  out.resize(initialBound(in.size()));
  size_t in_off = 0, out_off = 0;
  // avail_in/avail_out are 32-bit: feed and drain in slices.
  constexpr size_t kSlice = 1u << 30;
  while (true) {
    size_t in_chunk = std::min(in.size() - in_off, kSlice);
    if (out_off == out.size()) out.resize(out.size() * 2);
    size_t out_chunk = std::min(out.size() - out_off, kSlice);
    s.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(in.data() + in_off));
    s.avail_in = static_cast<uint32_t>(in_chunk);
    s.end_of_stream = in_off + in_chunk == in.size() ? 1 : 0;
    s.next_out = reinterpret_cast<uint8_t*>(out.data() + out_off);
    s.avail_out = static_cast<uint32_t>(out_chunk);
    const int rc = isal_deflate(&s);
    clearUpperVectorState();
    if (rc != COMP_OK) return Status::internal("gzip: ISA-L compression failed");
    size_t consumed = in_chunk - s.avail_in, produced = out_chunk - s.avail_out;
    in_off += consumed;
    out_off += produced;
    if (s.internal_state.state == ZSTATE_END) break;
    if (consumed == 0 && produced == 0) out.resize(out.size() * 2);  // never spin: give it room
  }
  out.resize(out_off);
  return Status::ok();
}

struct IsalGzipStream::State {
  isal_zstream stream;
  std::vector<uint8_t> level_buf;
};

namespace {
// The state and level buffer of this thread's last finished stream: a large profile per export
// would otherwise allocate (and fault in) ~0.4 MB each time.
std::unique_ptr<IsalGzipStream::State>& spareState() {
  thread_local std::unique_ptr<IsalGzipStream::State> spare;
  return spare;
}
}  // namespace

IsalGzipStream::IsalGzipStream() = default;
IsalGzipStream::~IsalGzipStream() {
  if (state_) spareState() = std::move(state_);
}

Status IsalGzipStream::begin(int level, std::string* out) {
  if (level < 1 || level > kIsalMaxLevel) return Status::invalid("gzip: ISA-L level out of range");
  if (!state_) state_ = spareState() ? std::move(spareState()) : std::make_unique<State>();
  state_->level_buf.resize(std::max<size_t>(state_->level_buf.size(), kLevelBufferSizes[level]));
  isal_zstream& s = state_->stream;
  isal_deflate_init(&s);
  s.level = static_cast<uint32_t>(level);
  s.level_buf = state_->level_buf.data();
  s.level_buf_size = static_cast<uint32_t>(state_->level_buf.size());
  s.gzip_flag = IGZIP_GZIP;
  s.flush = NO_FLUSH;
  out_ = out;
  out_used_ = out->size();
  return Status::ok();
}

Status IsalGzipStream::write(std::string_view piece, bool last) {
  if (!state_) return Status::internal("gzip: stream written before begin");
  isal_zstream& s = state_->stream;
  std::string& out = *out_;
  size_t in_off = 0;
  constexpr size_t kSlice = 1u << 30;  // avail_in/avail_out are 32-bit
  while (true) {
    // Compressed profile data is smaller than its input; a quarter of the piece is the usual need.
    if (out.size() - out_used_ < 64 * 1024) out.resize(std::max(out.size() * 2, out_used_ + piece.size() / 4 + 65536));
    const size_t in_chunk = std::min(piece.size() - in_off, kSlice);
    const size_t out_chunk = std::min(out.size() - out_used_, kSlice);
    s.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(piece.data() + in_off));
    s.avail_in = static_cast<uint32_t>(in_chunk);
    s.end_of_stream = last && in_off + in_chunk == piece.size() ? 1 : 0;
    s.next_out = reinterpret_cast<uint8_t*>(out.data() + out_used_);
    s.avail_out = static_cast<uint32_t>(out_chunk);
    const int rc = isal_deflate(&s);
    clearUpperVectorState();
    if (rc != COMP_OK) return Status::internal("gzip: ISA-L compression failed");
    in_off += in_chunk - s.avail_in;
    out_used_ += out_chunk - s.avail_out;
    const bool consumed_all = in_off == piece.size();
    if (last ? s.internal_state.state == ZSTATE_END : consumed_all && s.avail_out > 0) break;
  }
  if (last) {
    out.resize(out_used_);
    spareState() = std::move(state_);
  }
  return Status::ok();
}

}  // namespace proflow::compression::internal
