#include "core/formats/jfr/chunk_reader.h"

#include <algorithm>

namespace proflow::jfr {
namespace {
// Stream mode grows the chunk buffer in steps so a lying header cannot make us allocate gigabytes
// before the bytes actually arrive.
constexpr size_t kReadStep = 8u << 20;
}  // namespace

ChunkReader::ChunkReader(std::span<const uint8_t> file, Limits limits) : file_(file), limits_(limits) {}
ChunkReader::ChunkReader(std::istream& in, Limits limits) : in_(&in), limits_(limits) {}

bool ChunkReader::fail(uint64_t offset, std::string message) {
  failed_ = true;
  done_ = true;
  error_ = {offset, std::move(message)};
  return false;
}

bool ChunkReader::next(Chunk& chunk) {
  if (done_) return false;
  bool ok = in_ ? nextFromStream(chunk) : nextFromBuffer(chunk);
  if (ok) ++chunks_;
  return ok;
}

bool ChunkReader::nextFromBuffer(Chunk& chunk) {
  if (offset_ >= file_.size()) {
    done_ = true;
    if (chunks_ == 0) return fail(0, "empty input: no JFR chunk");
    return false;
  }
  const uint8_t* p = file_.data() + offset_;
  size_t available = file_.size() - offset_;
  ChunkHeader h;
  std::string err;
  if (!parseChunkHeader(p, available, &h, &err)) return fail(offset_, err);
  if (h.size > limits_.max_chunk_size)
    return fail(offset_ + 8, "chunk size " + std::to_string(h.size) + " exceeds the limit");
  if (h.size > available)
    return fail(offset_ + 8, "truncated chunk: header says " + std::to_string(h.size) + " bytes, " +
                                 std::to_string(available) + " available");
  uint64_t at = offset_;
  offset_ += h.size;
  if (!chunk.load(std::span(p, h.size), at, limits_)) {
    done_ = true;
    failed_ = true;
    error_ = chunk.error();
    return false;
  }
  return true;
}

bool ChunkReader::readFully(uint8_t* dst, size_t n, size_t* got) {
  in_->read(reinterpret_cast<char*>(dst), static_cast<std::streamsize>(n));
  *got = static_cast<size_t>(in_->gcount());
  return *got == n;
}

bool ChunkReader::nextFromStream(Chunk& chunk) {
  buffer_.resize(kChunkHeaderSize);
  size_t got = 0;
  if (!readFully(buffer_.data(), kChunkHeaderSize, &got)) {
    done_ = true;
    if (got == 0 && chunks_ > 0) return false;
    if (got == 0) return fail(0, "empty input: no JFR chunk");
    return fail(offset_, "truncated chunk header (" + std::to_string(got) + " of 68 bytes)");
  }
  ChunkHeader h;
  std::string err;
  if (!parseChunkHeader(buffer_.data(), got, &h, &err)) return fail(offset_, err);
  if (h.size > limits_.max_chunk_size)
    return fail(offset_ + 8, "chunk size " + std::to_string(h.size) + " exceeds the limit");
  size_t have = kChunkHeaderSize;
  while (have < h.size) {
    size_t step = static_cast<size_t>(std::min<uint64_t>(h.size - have, kReadStep));
    buffer_.resize(have + step);
    bool complete = readFully(buffer_.data() + have, step, &got);
    have += got;
    if (!complete)
      return fail(offset_ + 8, "truncated chunk: header says " + std::to_string(h.size) + " bytes, " +
                                   std::to_string(have) + " available");
  }
  buffer_.resize(have);
  uint64_t at = offset_;
  offset_ += h.size;
  if (!chunk.load(std::span<const uint8_t>(buffer_.data(), buffer_.size()), at, limits_)) {
    done_ = true;
    failed_ = true;
    error_ = chunk.error();
    return false;
  }
  return true;
}

}  // namespace proflow::jfr
