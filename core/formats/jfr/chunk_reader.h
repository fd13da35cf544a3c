// Splits a JFR file into chunks and loads them one at a time, from an in-memory buffer (zero copy) or an
// input stream (one chunk buffered at a time, so memory is bounded by the largest chunk, not the file).
//
//   ChunkReader reader(bytes);
//   Chunk chunk;
//   while (reader.next(chunk)) { ... chunk.select(...); while (chunk.nextEvent(&pos, &e)) ... }
//   if (reader.failed()) report(reader.error());
#pragma once

#include <cstdint>
#include <istream>
#include <span>
#include <vector>

#include "core/formats/jfr/chunk.h"

namespace proflow::jfr {

class ChunkReader {
 public:
  explicit ChunkReader(std::span<const uint8_t> file, Limits limits = {});
  explicit ChunkReader(std::istream& in, Limits limits = {});

  // Loads the next chunk into `chunk` (which stays valid until the next call). Returns false at the end
  // of the input or on an error (then failed() is true). Errors inside a chunk's events are reported by
  // the chunk itself, not here.
  bool next(Chunk& chunk);

  bool failed() const { return failed_; }
  const ParseError& error() const { return error_; }
  // File offset of the next chunk to read.
  uint64_t offset() const { return offset_; }
  size_t chunksRead() const { return chunks_; }

 private:
  bool fail(uint64_t offset, std::string message);
  bool nextFromBuffer(Chunk& chunk);
  bool nextFromStream(Chunk& chunk);
  bool readFully(uint8_t* dst, size_t n, size_t* got);

  std::span<const uint8_t> file_;
  std::istream* in_ = nullptr;
  std::vector<uint8_t> buffer_;  // stream mode: the current chunk
  Limits limits_;
  uint64_t offset_ = 0;
  size_t chunks_ = 0;
  bool failed_ = false;
  bool done_ = false;
  ParseError error_;
};

}  // namespace proflow::jfr
